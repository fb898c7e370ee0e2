/**
 * Materialization: expands input rows into one row per rollout, with
 * `_ng_task_index`, `_ng_rollout_index`, `agent_ref`, optional per-rollout seeds and shallow
 * `responses_create_params` overrides. Pure: no I/O.
 * @module
 */
import { RolloutFlagError, RolloutInputError } from './errors.js';
import { applyPrompt, checkPromptCompatible } from './prompt-config.js';
import type { PromptConfig } from './prompt-config.js';
import type { JsonlLine } from './jsonl.js';
import type { JsonObject, MaterializedRow } from './types.js';

/** Options of {@link materializeRows}. */
export interface MaterializeOptions {
  /**
   * Rollouts per input row. Default 1. The original's dict form maps agent names to counts,
   * with `_default` for agents it does not list.
   */
  numRepeats?: number | Readonly<Record<string, number>>;
  /** Builds each row's `responses_create_params.input` (rows must not have one). */
  prompt?: PromptConfig;
  /** Told about `numRepeats` entries naming agents no row uses. */
  onWarning?: (line: string) => void;
  /** Keep only the first `limit` valid input rows. Default all. */
  limit?: number;
  /** Agent instance name filled into rows that carry no `agent_ref`. */
  defaultAgent?: string;
  /** Put `{"seed": <rollout index>}` into `responses_create_params.metadata.extra_body` (vLLM honours it). */
  addSeed?: boolean;
  /** Merged shallowly over each row's `responses_create_params` (e.g. `temperature`). */
  paramOverrides?: JsonObject;
}

/**
 * Expands `lines` into materialized rows, in the original's "aabbcc" order. Identical input lines
 * (same raw text) share one `_ng_task_index` unless a row supplies its own; rollout indices count
 * up per task, so every `(task, rollout)` pair is unique. Throws `GYM_ROLLOUT_NO_AGENT_REF` when a
 * row has no `agent_ref` and no `defaultAgent` is given.
 * @example
 * materializeRows(parseInputRows(text, 'in.jsonl').rows, { numRepeats: 4, defaultAgent: 'my_agent' });
 */
export function materializeRows(lines: readonly JsonlLine[], options: MaterializeOptions = {}): MaterializedRow[] {
  const repeatsFor = repeatsLookup(options.numRepeats ?? 1);
  const selected = options.limit === undefined ? lines : lines.slice(0, options.limit);
  const prompt = options.prompt;
  if (prompt !== undefined)
    checkPromptCompatible(
      selected.map((l) => l.value),
      prompt,
    );
  const agentsSeen = new Set<string>();
  const unlisted = new Set<string>();
  const taskByText = new Map<string, number>();
  const nextRollout = new Map<number, number>();
  const missingAgent: number[] = [];
  const out: MaterializedRow[] = [];
  for (const line of selected) {
    const row = prompt === undefined ? line.value : applyPrompt(line.value, prompt);
    const agentRef = (row['agent_ref'] ?? (options.defaultAgent === undefined ? undefined : { name: options.defaultAgent })) as MaterializedRow['agent_ref'] | undefined;
    if (agentRef === undefined || typeof agentRef.name !== 'string') {
      missingAgent.push(line.lineNumber);
      continue;
    }
    agentsSeen.add(agentRef.name);
    const numRepeats = repeatsFor(agentRef.name);
    if (numRepeats === undefined) {
      unlisted.add(agentRef.name);
      continue;
    }
    const supplied = row['_ng_task_index'];
    const taskIndex = typeof supplied === 'number' ? supplied : taskIndexFor(taskByText, line.text);
    const params = { ...(row['responses_create_params'] as JsonObject), ...options.paramOverrides };
    for (let r = 0; r < numRepeats; r++) {
      const rolloutIndex = nextRollout.get(taskIndex) ?? 0;
      nextRollout.set(taskIndex, rolloutIndex + 1);
      const copy = structuredClone({ ...row, responses_create_params: params, agent_ref: agentRef }) as MaterializedRow;
      copy._ng_task_index = taskIndex;
      copy._ng_rollout_index = rolloutIndex;
      if (options.addSeed === true) addSeed(copy.responses_create_params, rolloutIndex);
      out.push(copy);
    }
  }
  if (missingAgent.length > 0) {
    throw new RolloutInputError(
      'GYM_ROLLOUT_NO_AGENT_REF',
      `No agent for the rows on input line(s) ${missingAgent.slice(0, 20).join(', ')}${missingAgent.length > 20 ? ', …' : ''}: they carry no agent_ref. Pass --agent, or add agent_ref to the rows.`,
    );
  }
  if (unlisted.size > 0 && isRepeatsMap(options.numRepeats)) {
    throw new RolloutFlagError(
      `num_repeats has no entry for agent(s) ${[...unlisted].sort().join(', ')} and no '_default'. Listed agents: ${
        Object.keys(options.numRepeats)
          .filter((k) => k !== '_default')
          .sort()
          .join(', ') || '(none)'
      }.`,
    );
  }
  if (isRepeatsMap(options.numRepeats)) {
    const unused = Object.keys(options.numRepeats).filter((k) => k !== '_default' && !agentsSeen.has(k));
    if (unused.length > 0) options.onWarning?.(`num_repeats names agent(s) no input row uses (a typo?): ${unused.sort().join(', ')}`);
  }
  return out;
}

function isRepeatsMap(value: MaterializeOptions['numRepeats']): value is Readonly<Record<string, number>> {
  return typeof value === 'object' && value !== null;
}

/** Rollouts for an agent: the int form for all, else its entry, else `_default`, else undefined. */
function repeatsLookup(value: number | Readonly<Record<string, number>>): (agent: string) => number | undefined {
  if (typeof value === 'number') return () => value;
  return (agent) => (Object.hasOwn(value, agent) ? value[agent] : value['_default']);
}

function taskIndexFor(taskByText: Map<string, number>, text: string): number {
  let index = taskByText.get(text);
  if (index === undefined) {
    index = taskByText.size;
    taskByText.set(text, index);
  }
  return index;
}

// extra_body is a JSON *string* inside metadata, as the original (OpenAI metadata values are strings)
function addSeed(params: JsonObject, seed: number): void {
  const metadata = (typeof params['metadata'] === 'object' && params['metadata'] !== null ? params['metadata'] : {}) as JsonObject;
  let extra: JsonObject = {};
  if (typeof metadata['extra_body'] === 'string') {
    try {
      extra = JSON.parse(metadata['extra_body']) as JsonObject;
    } catch {
      extra = {};
    }
  }
  params['metadata'] = { ...metadata, extra_body: JSON.stringify({ ...extra, seed }) };
}

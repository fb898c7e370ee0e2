/**
 * Materialization: expands input rows into one row per rollout, with
 * `_ng_task_index`, `_ng_rollout_index`, `agent_ref`, optional per-rollout seeds and shallow
 * `responses_create_params` overrides. Pure: no I/O.
 * @module
 */
import { RolloutInputError } from './errors.js';
import type { JsonlLine } from './jsonl.js';
import type { JsonObject, MaterializedRow } from './types.js';

/** Options of {@link materializeRows}. */
export interface MaterializeOptions {
  /** Rollouts per input row. Default 1. */
  numRepeats?: number;
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
  const numRepeats = options.numRepeats ?? 1;
  const selected = options.limit === undefined ? lines : lines.slice(0, options.limit);
  const taskByText = new Map<string, number>();
  const nextRollout = new Map<number, number>();
  const missingAgent: number[] = [];
  const out: MaterializedRow[] = [];
  for (const line of selected) {
    const row = line.value;
    const agentRef = (row['agent_ref'] ?? (options.defaultAgent === undefined ? undefined : { type: 'responses_api_agents', name: options.defaultAgent })) as
      | MaterializedRow['agent_ref']
      | undefined;
    if (agentRef === undefined || typeof agentRef.name !== 'string') {
      missingAgent.push(line.lineNumber);
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
  return out;
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

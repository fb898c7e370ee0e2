/**
 * Normalising `gym eval run` flags and raw Hydra keys into collection settings, in one place.
 * Policy: a flag wins over its key (`--concurrency` over `num_samples_in_parallel`, as in
 * NeMo Gym); numbers are validated here and nowhere else; nothing is guessed from value shapes.
 * @module
 */
import { parseOverrideValue } from '@gym/server/internal/config/override-parse.js';
import { DATASET_TYPES } from '../../rollouts/datasets.js';
import { RolloutFlagError } from '../../rollouts/errors.js';
import { isJsonObject } from '../../rollouts/types.js';
import type { ConfigMap } from '@gym/server/internal/config/types.js';
import type { JsonObject } from '../../rollouts/types.js';
import type { ConfigFlags } from '../config-options.js';

/** Flags of `gym eval run` (besides the selectors). */
export interface EvalRunFlags extends ConfigFlags {
  serve?: boolean;
  headUrl?: string;
  agent?: string;
  input?: string;
  output?: string;
  limit?: string;
  numRepeats?: string;
  promptConfig?: string;
  split?: string;
  concurrency?: string;
  resume?: boolean;
  strictInput?: boolean;
  temperature?: string;
  topP?: string;
  maxOutputTokens?: string;
  disableAggregation?: boolean;
  logDir?: string;
  showTelemetry?: boolean;
  /** `--no-health-check` sets false. */
  healthCheck?: boolean;
  healthCheckIgnore?: string;
  verbose?: boolean;
}

/** The normalised settings. */
export interface EvalRunSettings {
  agent?: string;
  input?: string;
  output?: string;
  limit?: number;
  /** An int for every row, or the original's dict form: agent name → count, `_default` for the rest. */
  numRepeats: number | Record<string, number>;
  promptConfig?: string;
  split?: string;
  concurrency?: number;
  resume: boolean;
  strictInput: boolean;
  addSeed: boolean;
  disableAggregation: boolean;
  paramOverrides: JsonObject;
}

/** Reads settings from `flags`, falling back to the config keys of the original's collection config. */
export function evalRunSettings(flags: EvalRunFlags, raw: ConfigMap): EvalRunSettings {
  const overrides: JsonObject = isJsonObject(raw['responses_create_params']) ? { ...raw['responses_create_params'] } : {};
  const temperature = number(flags.temperature, '--temperature', { min: 0 });
  const topP = number(flags.topP, '--top-p', { min: 0 });
  const maxOutputTokens = number(flags.maxOutputTokens, '--max-output-tokens', { min: 1, integer: true });
  if (temperature !== undefined) overrides['temperature'] = temperature;
  if (topP !== undefined) overrides['top_p'] = topP;
  if (maxOutputTokens !== undefined) overrides['max_output_tokens'] = maxOutputTokens;
  return {
    agent: flags.agent ?? str(raw['agent_name']),
    input: flags.input ?? str(raw['input_jsonl_fpath']),
    output: flags.output ?? str(raw['output_jsonl_fpath']),
    limit: number(flags.limit ?? raw['limit'], '--limit', { min: 0, integer: true }),
    numRepeats: numRepeats(flags.numRepeats ?? raw['num_repeats']),
    promptConfig: flags.promptConfig ?? str(raw['prompt_config']),
    split: split(flags.split ?? raw['split']),
    concurrency: number(flags.concurrency ?? raw['num_samples_in_parallel'], '--concurrency', { min: 1, integer: true }),
    resume: flags.resume ?? raw['resume_from_cache'] === true,
    strictInput: flags.strictInput ?? false,
    addSeed: raw['num_repeats_add_seed'] === true,
    disableAggregation: flags.disableAggregation ?? raw['disable_aggregation'] === true,
    paramOverrides: overrides,
  };
}

/** `results/<agent>_<UTC timestamp>.jsonl` (relative to the working directory). */
export function defaultOutputPath(agent: string | undefined, now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `results/${agent ?? 'rollouts'}_${stamp}.jsonl`;
}

/** `--num-repeats 4`, `+num_repeats=4`, or the dict form `--num-repeats '{simple_agent: 4, _default: 1}'`. */
function numRepeats(value: unknown): number | Record<string, number> {
  const parsed = typeof value === 'string' && value.trim().startsWith('{') ? parseDict(value) : value;
  if (!isJsonObject(parsed)) return number(parsed, '--num-repeats', { min: 1, integer: true }) ?? 1;
  const out: Record<string, number> = {};
  for (const [agent, n] of Object.entries(parsed)) out[agent] = number(n, `--num-repeats entry '${agent}'`, { min: 1, integer: true }) ?? 1;
  return out;
}

function parseDict(text: string): unknown {
  try {
    return parseOverrideValue(text);
  } catch {
    throw new RolloutFlagError(`--num-repeats must be an integer or a map of agent name to integer (e.g. '{my_agent: 4, _default: 1}'), got '${text}'.`);
  }
}

function split(value: unknown): string | undefined {
  const s = str(value);
  if (s === undefined) return undefined;
  if (!(DATASET_TYPES as readonly string[]).includes(s)) throw new RolloutFlagError(`--split must be one of ${DATASET_TYPES.join(', ')}, got '${s}'.`);
  return s;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function number(value: unknown, flag: string, rule: { min: number; integer?: boolean }): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n) || n < rule.min || (rule.integer === true && !Number.isInteger(n))) {
    throw new RolloutFlagError(`${flag} must be ${rule.integer === true ? 'an integer' : 'a number'} ≥ ${rule.min}, got '${String(value)}'.`);
  }
  return n;
}

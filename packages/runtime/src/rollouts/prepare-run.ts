/**
 * The read → materialize → plan stages of a collection run: either a fresh run (read the input,
 * materialize, replace every file) or `--resume` (reload the materialized inputs and the history).
 * @module
 */
import { existsSync } from 'node:fs';
import { RolloutInputError } from './errors.js';
import { readInputRows } from './input-rows.js';
import { materializeRows } from './materialize.js';
import { planRollouts, rolloutHistory } from './resume.js';
import { readJsonlFile, rolloutPaths, writeJsonlFile } from './rollout-files.js';
import type { JsonlLine, MalformedLine } from './jsonl.js';
import type { MaterializeOptions } from './materialize.js';
import type { RolloutHistory, RolloutPlan } from './resume.js';
import type { RolloutPaths } from './rollout-files.js';
import type { MaterializedRow } from './types.js';

/** Options of {@link prepareRun}. */
export interface PrepareOptions extends MaterializeOptions {
  output: string;
  /** Input JSONL path (absolute, or relative to the cwd); this or `readInput` is required unless resuming. */
  input?: string;
  /** Reads the input rows another way (the collated datasets of a split); used when `input` is unset. */
  readInput?: () => { rows: JsonlLine[]; malformed: { file: string; lines: MalformedLine[] }[] };
  resume?: boolean;
  strictInput?: boolean;
  maxAttempts: number;
}

/** Everything dispatch needs. */
export interface PreparedRun {
  paths: RolloutPaths;
  /** Every materialized row of the run (all pairs, done or not). */
  rows: MaterializedRow[];
  history: RolloutHistory;
  plan: RolloutPlan;
  /** True when the files of an earlier run are continued (append, not replace). */
  resumed: boolean;
  /** Skipped input lines (fresh run) or unreadable lines of the files being resumed. */
  malformed: { file: string; lines: MalformedLine[]; input: boolean }[];
}

/** Prepares a run. Writes `<stem>_materialized_inputs.jsonl` on a fresh run; never touches the output files. */
export function prepareRun(options: PrepareOptions): PreparedRun {
  const paths = rolloutPaths(options.output);
  const malformed: PreparedRun['malformed'] = [];
  if (options.resume === true && existsSync(paths.materializedInputs)) {
    const parsed = readJsonlFile(paths.materializedInputs);
    const outputs = readJsonlFile(paths.output);
    const failures = readJsonlFile(paths.failures);
    for (const [file, lines] of [
      [paths.materializedInputs, parsed.malformed],
      [paths.output, outputs.malformed],
      [paths.failures, failures.malformed],
    ] as const) {
      if (lines.length > 0) malformed.push({ file, lines, input: false });
    }
    const rows = parsed.lines.map((l) => l.value as MaterializedRow);
    const history = rolloutHistory(
      outputs.lines.map((l) => l.value),
      failures.lines.map((l) => l.value),
    );
    return { paths, rows, history, plan: planRollouts(rows, history, options.maxAttempts), resumed: true, malformed };
  }
  let inputRows: JsonlLine[];
  if (options.input !== undefined) {
    const input = readInputRows(options.input, options.strictInput === true, { promptInput: options.prompt !== undefined });
    if (input.malformed.length > 0) malformed.push({ file: options.input, lines: input.malformed, input: true });
    inputRows = input.rows;
  } else if (options.readInput !== undefined) {
    const input = options.readInput();
    for (const m of input.malformed) malformed.push({ ...m, input: true });
    inputRows = input.rows;
  } else {
    throw new RolloutInputError('GYM_ROLLOUT_NO_INPUT', 'No input file: pass --input, or give the agent a dataset of type "example" in its config.');
  }
  const rows = materializeRows(inputRows, options);
  writeJsonlFile(paths.materializedInputs, rows);
  const history = rolloutHistory([], []);
  return { paths, rows, history, plan: planRollouts(rows, history, options.maxAttempts), resumed: false, malformed };
}

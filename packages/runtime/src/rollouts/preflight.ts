/**
 * What a collection run can check before any server starts, as the original prepares its datasets
 * before starting them: `--input` and `--split` not both given, the input file readable, and the
 * datasets of the split present and readable (their rows parsed, a benchmark prompt applicable).
 * @module
 */
import { collateDatasets, listDatasets } from './datasets.js';
import { RolloutFlagError } from './errors.js';
import { readInputRows } from './input-rows.js';
import type { ConfigMap } from '@gym/server/internal/config/index.js';

/** The run settings the checks read. */
export interface PreflightOptions {
  input?: string | undefined;
  split?: string | undefined;
  agent?: string | undefined;
  strictInput?: boolean;
  /** True when a benchmark prompt config is applied to the rows. */
  promptInput?: boolean;
  resolvePath: (path: string) => string;
}

/** Throws the error collection would throw later for its input; returns when the input is usable. */
export function checkRunInput(config: ConfigMap, options: PreflightOptions): void {
  if (options.input !== undefined && options.split !== undefined) {
    throw new RolloutFlagError(`--split ${options.split} and --input both choose the input rows: pass one of them.`);
  }
  if (options.input !== undefined) {
    readInputRows(options.input, options.strictInput === true, { promptInput: options.promptInput === true });
    return;
  }
  const agents = options.agent === undefined ? [...new Set(listDatasets(config).map((d) => d.agent))] : [options.agent];
  collateDatasets(config, {
    split: options.split ?? 'example',
    agents,
    resolvePath: options.resolvePath,
    promptInput: options.promptInput === true,
    strict: options.strictInput === true,
  });
}

/**
 * `gym trace anomalies`: truncated, orphan, duplicate, unclosed and error spans, traces without a
 * root, rollouts without verification, retried requests.
 * @module
 */
import { toJson } from '../render/format.js';
import { renderAnomalies } from '../render/anomalies.js';
import { AnomaliesTask } from './batch-tasks.js';
import { readInBatches } from './load-batches.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import type { CommandOutput, OutputFormat } from './output.js';

/** Options of {@link anomalies}. */
export interface AnomaliesOptions extends InputOptions {
  format?: OutputFormat;
}

/** Runs `anomalies`; returns 0 whether or not anomalies were found (2 for bad input). */
export async function anomalies(options: AnomaliesOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    const task = new AnomaliesTask();
    const { stats } = await readInBatches(options, out, task);
    const report = task.anomalies.finish();
    if (options.format === 'json') out.write(toJson({ ...report, read: stats }));
    else out.write(renderAnomalies(report, options.format === 'markdown' ? 'markdown' : 'text'));
    return 0;
  });
}

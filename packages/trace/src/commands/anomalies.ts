/**
 * `gym trace anomalies`: truncated, orphan, duplicate, unclosed and error spans, traces without a
 * root, rollouts without verification, retried requests.
 * @module
 */
import { toJson } from '../render/format.js';
import { renderAnomalies } from '../render/anomalies.js';
import { AnomaliesTask } from './batch-tasks.js';
import { derivedResult } from '../store/derived-results.js';
import { resolvePaths } from './default-paths.js';
import { readShape, readStoreInBatches } from './load-batches.js';
import { withStore } from './load.js';
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
    const paths = await resolvePaths(options.paths, options.cwd, out);
    // the findings are computed once per store (derived-results.ts); the read's counters are the store's
    const { report, stats } = await withStore(paths, out, async (store) => ({
      stats: store.stats,
      report: await derivedResult(store, 'anomalies', readShape(), async () => {
        const task = new AnomaliesTask();
        await readStoreInBatches(store, paths, task);
        return task.anomalies.finish();
      }),
    }));
    if (options.format === 'json') out.write(toJson({ ...report, read: stats }));
    else out.write(renderAnomalies(report, options.format === 'markdown' ? 'markdown' : 'text'));
    return 0;
  });
}

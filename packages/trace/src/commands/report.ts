/**
 * `gym trace report`: one self-contained HTML file with the run summary, the rollout list, a
 * waterfall per rollout and the span statistics. A large run is read in batches of whole rollouts
 * by the worker threads (as `stats` reads it), so memory and the page stay bounded whatever the
 * size of the run.
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { DEFAULT_MAX_ROWS } from '../report/report-data.js';
import { renderReportHtml } from '../report/page.js';
import { findEvidence, readEvidence } from '../evidence/rollout-evidence.js';
import { ReportTask } from './batch-tasks.js';
import { derivedResult } from '../store/derived-results.js';
import { resolvePaths } from './default-paths.js';
import { storeSpanStats } from './stats.js';
import { readShape, readStoreInBatches } from './load-batches.js';
import { withStore } from './load.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import type { CommandOutput } from './output.js';

/** Options of {@link report}. */
export interface ReportOptions extends InputOptions {
  /** Output file. Default `trace-report.html`. */
  out?: string;
  /** Rollouts with a full waterfall at most (a quarter failed, half the slowest, the rest a sample). Default 200. */
  maxRollouts?: number;
  /** Above this many rollouts the list holds only those with a waterfall. Default 2000. */
  maxRows?: number;
  /** Spans per waterfall at most. Default 1000. */
  maxSpans?: number;
  /** Rollouts JSONL files: each rollout's evidence is shown under its waterfall. */
  evidence?: string[];
}

/** Runs `report`; returns the exit code (0, or 2 for bad input). */
export async function report(options: ReportOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    const maxRollouts = options.maxRollouts ?? 200;
    const maxSpans = options.maxSpans ?? 1000;
    if (!Number.isInteger(maxRollouts) || maxRollouts < 0) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--max-rollouts takes a non-negative integer, got ${options.maxRollouts}.`);
    const maxRows = options.maxRows ?? DEFAULT_MAX_ROWS;
    if (!Number.isInteger(maxSpans) || maxSpans < 1) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--max-spans takes a positive integer, got ${options.maxSpans}.`);
    if (!Number.isInteger(maxRows) || maxRows < 0) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--max-rows takes a non-negative integer, got ${options.maxRows}.`);
    // a large run is read by the worker threads, as `stats` reads it; the file is the same with one
    const paths = await resolvePaths(options.paths, options.cwd, out);
    // the page's data is computed once per store and options (derived-results.ts); its date is today's
    const data = await withStore(paths, out, (store) =>
      derivedResult(store, 'report', { maxRollouts, maxSpans, maxRows, ...readShape() }, async () => {
        // the statistics table as `stats` keeps it (and reads it back), computed before the walk:
        // DuckDB's memory is given back before the walk fills JavaScript's, and the walk keeps no
        // span's duration
        const stats = await storeSpanStats(store, paths, { type: 'name' });
        const task = new ReportTask({ maxRollouts, maxSpans, maxRows, stats });
        const read = await readStoreInBatches(store, paths, task);
        // the inputs and the saturation are known once the read is over
        return task.builder.finish(read.stats, { inputs: read.paths, saturation: read.saturation });
      }),
    );
    data.generatedAt = new Date().toISOString();
    if (options.evidence !== undefined && options.evidence.length > 0) {
      const index = readEvidence(options.evidence);
      data.evidence = {};
      // joined by the row's trace id (the rollouts file records it per rollout), else its rollout id
      for (const row of data.rows) {
        const found = findEvidence(index, { rolloutId: data.rowKind === 'rollout' ? row.id : null });
        if (found !== undefined) data.evidence[row.key] = found;
      }
    }
    const html = renderReportHtml(data);
    const file = resolve(options.cwd ?? process.cwd(), options.out ?? 'trace-report.html');
    await writeFile(file, html);
    const detail = Object.keys(data.details).length;
    const withEvidence = data.evidence === undefined ? '' : `, ${Object.keys(data.evidence).length} with rollout evidence`;
    const listed = data.listing.capped ? `${data.listing.total} ${data.rowKind}s (${data.listing.listed} listed)` : `${data.rows.length} ${data.rowKind}s`;
    out.write(`wrote ${file} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB): ${listed}, ${detail} with waterfalls${withEvidence}, ${data.summary.spans} spans\n`);
    return 0;
  });
}

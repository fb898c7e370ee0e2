/**
 * `gym trace report`: one self-contained HTML file with the run summary, the rollout list, a
 * waterfall per rollout and the span statistics.
 * @module
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { buildReportData } from '../report/report-data.js';
import { renderReportHtml } from '../report/page.js';
import { findEvidence, readEvidence } from '../evidence/rollout-evidence.js';
import { loadTelemetry } from './load.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import type { CommandOutput } from './output.js';

/** Options of {@link report}. */
export interface ReportOptions extends InputOptions {
  /** Output file. Default `trace-report.html`. */
  out?: string;
  /** Rollouts with a full waterfall at most (errors first, then slowest); the list has all. Default 200. */
  maxRollouts?: number;
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
    if (!Number.isInteger(maxSpans) || maxSpans < 1) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--max-spans takes a positive integer, got ${options.maxSpans}.`);
    const { paths, set, rollouts, stats, saturation } = await loadTelemetry(options, out);
    const data = buildReportData(set, rollouts, stats, { maxRollouts, maxSpans, inputs: paths, saturation });
    if (options.evidence !== undefined && options.evidence.length > 0) {
      const index = readEvidence(options.evidence);
      data.evidence = {};
      // joined by the row's trace id (the rollouts file records it per rollout), else its rollout id
      for (const row of data.rows) {
        const found = findEvidence(index, { traceId: row.traceId, rolloutId: data.rowKind === 'rollout' ? row.id : null });
        if (found !== undefined) data.evidence[row.key] = found;
      }
    }
    const html = renderReportHtml(data);
    const file = resolve(options.cwd ?? process.cwd(), options.out ?? 'trace-report.html');
    await writeFile(file, html);
    const detail = Object.keys(data.details).length;
    const withEvidence = data.evidence === undefined ? '' : `, ${Object.keys(data.evidence).length} with rollout evidence`;
    out.write(`wrote ${file} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB): ${data.rows.length} ${data.rowKind}s, ${detail} with waterfalls${withEvidence}, ${data.summary.spans} spans\n`);
    return 0;
  });
}

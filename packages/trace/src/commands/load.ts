/**
 * The read → assemble stage every command shares, with progress on a terminal and a clear error
 * when the input holds no spans.
 * @module
 */
import { buildSaturation } from '../analyze/saturation.js';
import type { SaturationData } from '../analyze/saturation.js';
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findRollouts } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { readSpans } from '../read/read-spans.js';
import type { ReadStats } from '../read/read-stats.js';
import { CONSOLE_TELEMETRY_SWITCH, resolvePaths } from './default-paths.js';
import type { CommandOutput } from './output.js';

/** Inputs every command accepts. */
export interface InputOptions {
  /** Files or directories; default: the newest run under `.gym/logs/` (see `resolvePaths`). */
  paths?: string[];
  /** Directory the default path is resolved against. Default `process.cwd()`. */
  cwd?: string;
}

/** Everything read from the input. */
export interface LoadedTelemetry {
  paths: string[];
  stats: ReadStats;
  set: TraceSet;
  rollouts: Rollout[];
  /** Process saturation from the metric lines of the input (`recorded: false` when there were none). */
  saturation: SaturationData;
}

/** Progress is printed only above this many bytes (and only to a terminal). */
export const PROGRESS_THRESHOLD_BYTES = 100 * 1024 * 1024;

/**
 * Reads and assembles the input. Warns on stderr about malformed lines.
 * @throws TraceUserError `GYM_TRACE_PATH_NOT_FOUND`, `GYM_TRACE_NO_PATHS`, `GYM_TRACE_NO_SPANS`.
 */
export async function loadTelemetry(options: InputOptions, out: CommandOutput): Promise<LoadedTelemetry> {
  const paths = await resolvePaths(options.paths, options.cwd, (note) => out.error(`${note}\n`));
  let lastPct = -1;
  const { spans, metrics, stats } = await readSpans(paths, {
    onProgress: (p) => {
      if (out.errorIsTTY !== true || p.totalBytes < PROGRESS_THRESHOLD_BYTES) return;
      const pct = Math.floor((p.bytesRead / p.totalBytes) * 100);
      if (pct === lastPct) return;
      lastPct = pct;
      out.error(`\rreading ${(p.bytesRead / 1048576).toFixed(0)} / ${(p.totalBytes / 1048576).toFixed(0)} MiB (${pct}%)${pct === 100 ? '\n' : ''}`);
    },
  });
  if (stats.spans === 0)
    throw new TraceUserError(
      TRACE_ERROR_CODES.noSpans,
      `No spans found in ${paths.join(', ')}: ${describeRead(stats)}. Telemetry must be on with the console or OTLP/JSON file exporter (${CONSOLE_TELEMETRY_SWITCH}).`,
    );
  if (stats.malformedLines > 0) out.error(`warning: ${describeRead(stats)}\n`);
  const set = assembleTraces(spans);
  return { paths, stats, set, rollouts: findRollouts(set), saturation: buildSaturation(metrics) };
}

/** One line describing a read: files, lines, spans, skipped and malformed (with the first example). */
export function describeRead(s: ReadStats): string {
  const first = s.malformedExamples[0];
  const malformed = s.malformedLines === 0 ? '' : `, ${s.malformedLines} malformed (first: ${first?.file}:${first?.line} ${first?.reason})`;
  const metrics = s.metricRecords === 0 ? '' : `, ${s.metricRecords} metric records`;
  return `read ${s.linesRead} lines in ${s.files} file${s.files === 1 ? '' : 's'}: ${s.spans} spans${metrics}, ${s.skippedLines} other lines skipped${malformed}`;
}

/**
 * The read → assemble stage every command shares: the run's store (see `store/`), read whole, with
 * a clear error when the input holds no spans.
 * @module
 */
import { buildSaturation } from '../analyze/saturation.js';
import type { SaturationData } from '../analyze/saturation.js';
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findRollouts } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { DEFAULT_MEMORY_LIMIT, MEMORY_LIMIT_ENV } from '../store/duck.js';
import { openStore } from '../store/open-store.js';
import type { TraceStore } from '../store/open-store.js';
import { readAllSpans, readSaturationPoints, spanRows } from '../store/store-read.js';
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

/**
 * Reads and assembles the input from its store (converting first what is new). Warns on stderr about malformed lines.
 * @throws TraceUserError `GYM_TRACE_PATH_NOT_FOUND`, `GYM_TRACE_NO_PATHS`, `GYM_TRACE_NO_SPANS`.
 */
export async function loadTelemetry(options: InputOptions, out: CommandOutput): Promise<LoadedTelemetry> {
  const paths = await resolvePaths(options.paths, options.cwd, out);
  return withStore(paths, out, async (store) => {
    const rows = await spanRows(store);
    const spans = await readAllSpans(store, rows);
    const set = assembleTraces(spans);
    return { paths, stats: store.stats, set, rollouts: findRollouts(set), saturation: buildSaturation(await readSaturationPoints(store, rows)) };
  });
}

/**
 * Opens the store of `paths`, checks that it holds spans (warning about malformed lines), and runs
 * `body` on it. `requireSpans: false` (a run that may not have begun) takes a store without spans.
 * @throws TraceUserError `GYM_TRACE_NO_SPANS`.
 */
export async function withStore<T>(paths: string[], out: CommandOutput, body: (store: TraceStore) => Promise<T>, { requireSpans = true } = {}): Promise<T> {
  const store = await openStore(paths, out);
  try {
    const stats = store.stats;
    if (stats.spans === 0 && requireSpans)
      throw new TraceUserError(
        TRACE_ERROR_CODES.noSpans,
        `No spans found in ${paths.join(', ')}: ${describeRead(stats)}. Telemetry must be on with the console or OTLP/JSON file exporter (${CONSOLE_TELEMETRY_SWITCH}).`,
      );
    if (stats.malformedLines > 0) out.error(`warning: ${describeRead(stats)}\n`);
    return await body(store);
  } catch (err) {
    throw outOfMemory(err) ?? err;
  } finally {
    await store.close();
  }
}

/**
 * DuckDB's "Out of Memory" as a user error that says what to do: a query it cannot spill (a hash
 * table, the recursive walk that splits a trace of millions of spans into rollouts) needs more
 * than `GYM_TRACE_MEMORY_LIMIT`. Undefined for any other error.
 */
function outOfMemory(err: unknown): TraceUserError | undefined {
  if (!(err instanceof Error) || !err.message.startsWith('Out of Memory Error')) return undefined;
  const limit = process.env[MEMORY_LIMIT_ENV] ?? DEFAULT_MEMORY_LIMIT;
  return new TraceUserError(
    TRACE_ERROR_CODES.outOfMemory,
    `DuckDB needed more than its memory limit (${limit}) to read this run: ${err.message.split('\n')[0]}. Run the command again with a higher limit, e.g. ${MEMORY_LIMIT_ENV}=2GB.`,
    { cause: err },
  );
}

/** One line describing a read: files, lines, spans, skipped and malformed (with the first example). */
export function describeRead(s: ReadStats): string {
  const first = s.malformedExamples[0];
  const malformed = s.malformedLines === 0 ? '' : `, ${s.malformedLines} malformed (first: ${first?.file}:${first?.line} ${first?.reason})`;
  const metrics = s.metricRecords === 0 ? '' : `, ${s.metricRecords} metric records`;
  return `read ${s.linesRead} lines in ${s.files} file${s.files === 1 ? '' : 's'}: ${s.spans} spans${metrics}, ${s.skippedLines} other lines skipped${malformed}`;
}

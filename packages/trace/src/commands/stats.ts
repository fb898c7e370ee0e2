/**
 * `gym trace stats`: per span name (service, attribute) counts, errors and exact percentiles;
 * `--compare A B` flags groups whose p50 or p95 moved beyond `--threshold` percent.
 * @module
 */
import { compareStats } from '../analyze/compare.js';
import { parseGrouping, StatsAccumulator } from '../analyze/stats.js';
import type { SpanStats, StatsGrouping } from '../analyze/stats.js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { toJson } from '../render/format.js';
import { renderComparison, renderStats } from '../render/stats.js';
import { renderCategoryShares } from '../render/why.js';
import { derivedResult } from '../store/derived-results.js';
import type { TraceStore } from '../store/open-store.js';
import { rolloutTimeSplit } from '../store/rollout-time-split.js';
import { spanStatsSql } from '../store/stats-sql.js';
import { resolvePaths } from './default-paths.js';
import { readShape, readStoreInBatches } from './load-batches.js';
import { withStore } from './load.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import type { CommandOutput, OutputFormat } from './output.js';

/** Options of {@link stats}. */
export interface StatsOptions extends InputOptions {
  /** `name` (default), `service` or `attribute:<key>`. */
  by?: string;
  /** Two inputs (file or directory each) to compare, A then B; replaces `paths`. */
  compare?: [string, string];
  /** Percent change of p50 or p95 that flags a group. Default 10. */
  thresholdPct?: number;
  format?: OutputFormat;
  /** Columns the text may take (the terminal's); none: as wide as the content. */
  width?: number;
}

/** Runs `stats`; returns the exit code (0, or 2 for bad input). */
export async function stats(options: StatsOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    const by = parseGrouping(options.by ?? 'name');
    const format = options.format ?? 'text';
    const md = format === 'markdown' ? 'markdown' : 'text';
    if (options.compare !== undefined) {
      if (options.compare.length !== 2) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--compare takes exactly two inputs (A B), got ${(options.compare as readonly string[]).length}.`); // the CLI passes any count
      const threshold = options.thresholdPct ?? 10;
      if (!Number.isFinite(threshold) || threshold < 0) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--threshold takes a non-negative percentage, got ${options.thresholdPct}.`);
      // each side's table as `stats` makes it (from the store, and kept), one after the other: neither run is read whole
      const sides: SpanStats[] = [];
      for (const p of options.compare) {
        const paths = await resolvePaths([p], options.cwd, out);
        sides.push(await withStore(paths, out, (store) => storeSpanStats(store, paths, by)));
      }
      const result = compareStats(sides[0]!, sides[1]!, threshold);
      out.write(format === 'json' ? toJson(result) : renderComparison(result, md, options.width));
      return 0;
    }
    const paths = await resolvePaths(options.paths, options.cwd, out);
    const { result, split } = await withStore(paths, out, async (store) => {
      // the table first: DuckDB's memory is given back before the walk below fills JavaScript's
      const result = await storeSpanStats(store, paths, by);
      // The split of each rollout needs its tree: walked once per store, then read from the
      // store's derived table.
      const { totals } = await rolloutTimeSplit(store, readShape(), async (onRollouts) => {
        await readStoreInBatches(store, paths, (batch) => onRollouts(batch.rollouts));
      });
      return { result, split: totals.count > 0 ? totals.finish() : null };
    });
    if (format === 'json') out.write(toJson({ ...result, timeSplit: split }));
    else out.write(renderStats(result, md, options.width) + (split === null ? '' : `\n${renderCategoryShares(split, md, options.width)}`));
    return 0;
  });
}

/**
 * `stats`' per-group table of the store of `paths`, grouped `by`: kept as a derived result
 * (`store/derived-results.ts`), computed the first time from SQL (the same numbers as from the
 * trees: test/stats-sql.test.ts), which holds them within DuckDB's memory limit where the walk
 * would keep every span's duration; by the walk where SQL cannot name the groups as it does.
 */
export async function storeSpanStats(store: TraceStore, paths: string[], by: StatsGrouping): Promise<SpanStats> {
  return derivedResult(store, 'stats', { by, ...readShape() }, async () => {
    const sql = await spanStatsSql(store, by);
    if (sql !== null) return sql;
    const acc = new StatsAccumulator(by);
    await readStoreInBatches(store, paths, (batch) => acc.add(batch.set, batch.rollouts, batch.shared));
    return acc.finish();
  });
}

/**
 * The five statistics of the aggregate metrics, as pandas computes them:
 * sample standard deviation (n−1), reported as 0 instead of NaN for a single value.
 * @module
 */

/** `mean`, `max`, `min`, `median`, `std` of a column. */
export interface ColumnStats {
  mean: number;
  max: number;
  min: number;
  median: number;
  std: number;
}

/** The statistic names, in the order keys are written. */
export const STAT_NAMES = ['mean', 'max', 'min', 'median', 'std'] as const;

/** Statistics of `values` (must be non-empty). */
export function columnStats(values: readonly number[]): ColumnStats {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(n / 2);
  const median = n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const std = n < 2 ? 0 : Math.sqrt(values.reduce((acc, v) => acc + (v - mean) ** 2, 0) / (n - 1));
  return { mean, max: sorted[n - 1]!, min: sorted[0]!, median, std };
}

/**
 * The numeric columns of one result, as the original's reward profiler reads them: top-level
 * numbers and booleans (as 0/1), plus the numeric fields of `response.usage` under their own
 * names (`input_tokens`, `output_tokens`, `total_tokens`, …). `skip` names keys to leave out.
 */
export function numericColumns(result: Record<string, unknown>, skip: ReadonlySet<string>): Map<string, number> {
  const columns = new Map<string, number>();
  const response = result['response'];
  const usage = typeof response === 'object' && response !== null ? (response as Record<string, unknown>)['usage'] : undefined;
  const merged = typeof usage === 'object' && usage !== null ? { ...result, ...(usage as Record<string, unknown>) } : result;
  for (const [key, value] of Object.entries(merged)) {
    if (skip.has(key)) continue;
    if (typeof value === 'boolean') columns.set(key, value ? 1 : 0);
    else if (typeof value === 'number' && Number.isFinite(value)) columns.set(key, value);
  }
  return columns;
}

/** `"<stat>/<column>"` for every column seen in `rows` (a row missing a column is skipped for it). */
export function describeColumns(rows: readonly Map<string, number>[]): Record<string, number> {
  const byColumn = new Map<string, number[]>();
  for (const row of rows) {
    for (const [key, value] of row) {
      let list = byColumn.get(key);
      if (list === undefined) byColumn.set(key, (list = []));
      list.push(value);
    }
  }
  const out: Record<string, number> = {};
  for (const stat of STAT_NAMES) {
    for (const [column, values] of byColumn) out[`${stat}/${column}`] = columnStats(values)[stat];
  }
  return out;
}

/**
 * `stats`' per-group numbers as one SQL pass over the store's span parts, without a span in
 * JavaScript: what `StatsAccumulator` (`analyze/stats.ts`) computes from the assembled trees, to
 * the same values. The trees are the store's rows as `assembleTraces` links them: one copy per
 * (trace, span id) — the one that ended and was not truncated, else the first in input order — and
 * a parent per span named by `parent_span_id` in the same trace. (A garbage input whose parent
 * links form a cycle is the one difference: the assembly cuts the cycle, this keeps its links.)
 * @module
 */
import type { DuckDBListValue } from '@duckdb/node-api';
import type { SpanStats, StatsGroup, StatsGrouping } from '../analyze/stats.js';
import { ATTR, nsToMs, SPAN } from '../span-record.js';
import { FREED_MEMORY_BACK, memoryLimitBytes, sqlList, sqlString, withSettings } from './duck.js';
import type { TraceStore } from './open-store.js';
import { emptyTableSql } from './store-schema.js';

/** Percentiles as `percentiles.ts` picks them (nearest rank). */
const PERCENTILES = [50, 90, 95, 99] as const;

/**
 * Per-group counts, errors, percentiles, max, total and self time, rollout count and wall, over
 * every span of `store`, grouped `by`. Sums of durations are exact (integer ns, then ms). Null
 * when an attribute's values do not map one to one onto the keys the JavaScript path gives them
 * (two JSON texts of one number, `1.0` and `1`): the caller computes them there.
 */
export async function spanStatsSql(store: TraceStore, by: StatsGrouping): Promise<SpanStats | null> {
  const c = store.duck.connection;
  // On one thread: each thread's hash tables and sorts count against the memory limit, and with two
  // a small limit (or a run of tens of millions of spans) ran out of it now and then. Within the
  // limit less 16 bytes a span, but not below half of it, and with DuckDB's allocator handing
  // freed memory back to the system past 16 MiB rather than 128: what DuckDB holds beyond its
  // limit grows with the run (about 350 MB at 20M spans). At 20M spans the stage peaks at
  // 603 MiB so; under the whole 512MB, with the percentiles by `quantile_disc`, at 1,374 MiB.
  const limit = await memoryLimitBytes(c);
  const stage = Math.floor(Math.max(limit * STAGE_SHARE_AT_LEAST, limit - STAGE_BYTES_PER_SPAN * store.stats.spans));
  const settings = { threads: '1', memory_limit: `${stage}B`, ...FREED_MEMORY_BACK };
  return withSettings(c, settings, () => statsOf(store, by));
}

/** The least share of the memory limit {@link spanStatsSql} runs within. */
const STAGE_SHARE_AT_LEAST = 0.5;

/** What {@link spanStatsSql} leaves of the memory limit per span, for what DuckDB holds beyond it. */
const STAGE_BYTES_PER_SPAN = 16;

async function statsOf(store: TraceStore, by: StatsGrouping): Promise<SpanStats | null> {
  const c = store.duck.connection;
  const parts = store.parts('spans');
  const from = parts.length === 0 ? `(${emptyTableSql('spans')})` : `read_parquet(${sqlList(parts)})`;
  const files = sqlList(store.files.map((f) => f.path));
  const key = keySql(by);
  try {
    // the spans, keyed by the hashes of their ids (joins and partitions on numbers cost a fraction
    // of those on strings; a wrong link needs two distinct spans to share both 64-bit hashes, of
    // the trace id and of the span id), with only the columns the numbers need; the truncation
    // attribute is looked for in the text before the JSON is parsed (in a CASE: under an AND, DuckDB
    // parses every span's)
    // (the input order, which picks among copies of a span, only where there are copies)
    const nodes = (order: boolean) => `SELECT hash(trace_id) AS t, hash(span_id) AS s, CASE WHEN parent_span_id IS NULL OR parent_span_id = span_id THEN NULL ELSE hash(parent_span_id) END AS p,
        start_ns, CASE WHEN end_ns >= start_ns THEN end_ns ELSE start_ns END AS end_ns,
        CASE WHEN contains(attributes, '${ATTR.TRUNCATED}') THEN coalesce(json_extract_string(attributes, '$."${ATTR.TRUNCATED}"') = 'true', false) ELSE false END AS truncated,
        status_code = 'ERROR' AS err, name = ${sqlString(SPAN.ROLLOUT)} AS rollout, CASE kind WHEN 'SERVER' THEN 1 WHEN 'CLIENT' THEN 2 ELSE 0 END::TINYINT AS kind,
        hash(service) AS service, ${key.value} AS gym_key${key.json === null ? '' : `, ${key.json} AS gym_key_json`}
        ${order ? `, coalesce(end_ns >= start_ns, false) AS ended, list_position(${files}, file) AS f, chunk, seq` : ''}
      FROM ${from}`;
    await c.run(`CREATE OR REPLACE TEMP TABLE gym_nodes AS ${nodes(false)}`);
    // one copy per span id of a trace, as `assembleTraces` keeps it (the ended, untruncated one, else the first)
    const [duplicated] = (await c.runAndReadAll(`SELECT count(*) FROM (SELECT 1 FROM gym_nodes GROUP BY t, s HAVING count(*) > 1)`)).getRows()[0]!;
    if (Number(duplicated) > 0)
      await c.run(`CREATE OR REPLACE TEMP TABLE gym_nodes AS SELECT * EXCLUDE (copy, ended, f, chunk, seq) FROM (
          SELECT *, row_number() OVER (PARTITION BY t, s ORDER BY ended::INTEGER * 2 + (NOT truncated)::INTEGER DESC, f, chunk, seq) AS copy FROM (${nodes(true)}))
        WHERE copy = 1`);
    // self time: the span's interval less the union of its children's, clipped to it. The
    // children of a span in one row: their count, least and greatest start and end — which give
    // the union of one or two intervals exactly (two that overlap cover [least start, greatest
    // end]; two that do not are [least start, least end] and [greatest start, greatest end])
    await c.run(`CREATE OR REPLACE TEMP TABLE gym_kids AS SELECT t, p, count(*) AS k, min(start_ns) AS a1, max(start_ns) AS a2, min(end_ns) AS b1, max(end_ns) AS b2
      FROM gym_nodes WHERE p IS NOT NULL GROUP BY t, p`);
    // of three children or more, a sweep by start, each covering what lies past the furthest end
    // before it; summed by the parent's group
    const sweep = `SELECT gym_key, sum(greatest(0, ce - greatest(cs, ps, coalesce(before, ps)))) AS covered FROM (
        SELECT *, max(ce) OVER (PARTITION BY t, s ORDER BY cs ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before FROM (
          SELECT p.t, p.s, p.gym_key, p.start_ns AS ps, c.start_ns AS cs, least(c.end_ns, p.end_ns) AS ce
          FROM gym_nodes c JOIN (SELECT n.t, n.s, n.gym_key, n.start_ns, n.end_ns FROM gym_nodes n JOIN gym_kids k ON k.t = n.t AND k.p = n.s
            WHERE k.k >= 3 AND n.end_ns > n.start_ns AND NOT n.truncated AND n.gym_key IS NOT NULL) p
          ON p.t = c.t AND p.s = c.p))
      GROUP BY gym_key`;
    const clip = (from: string, to: string) => `greatest(0, least(${to}, n.end_ns) - greatest(${from}, n.start_ns))`;
    const covered = `CASE WHEN k IS NULL OR k >= 3 OR n.end_ns <= n.start_ns THEN 0 WHEN k = 1 OR a2 <= b1 THEN ${clip('a1', 'b2')} ELSE ${clip('a1', 'b1')} + ${clip('a2', 'b2')} END`;
    const ms = (ns: string) => `${ns}::DOUBLE / 1000000::DOUBLE`;
    // percentiles of the integer durations, as ms after (the order is the same, the sort
    // cheaper), at rank max(1, ⌈p/100·n⌉) as `percentiles.ts` takes them: by a sort of the
    // durations within each group, which DuckDB holds within its limit and spills beyond it.
    // (`quantile_disc` keeps each group's durations in lists outside the limit: at 20M spans the
    // process peaked at 920 MiB in this statement under a limit of 256MB.)
    const rank = (p: number) => `greatest(1, ceil(${p}::DOUBLE / 100::DOUBLE * n::DOUBLE))`;
    await c.run(`CREATE OR REPLACE TEMP TABLE gym_quantiles AS
      SELECT gym_key, list_transform([${PERCENTILES.map((p) => `max(d) FILTER (rn = ${rank(p)})`).join(', ')}], lambda x: ${ms('x')}) AS quantiles FROM (
        SELECT gym_key, d, row_number() OVER w AS rn, count(*) OVER (PARTITION BY gym_key) AS n FROM (
          SELECT gym_key, end_ns - start_ns AS d FROM gym_nodes WHERE NOT truncated AND gym_key IS NOT NULL)
        WINDOW w AS (PARTITION BY gym_key ORDER BY d))
      GROUP BY gym_key`);
    const rows = (
      await c.runAndReadAll(`SELECT gym_key, json, count, errors, total::VARCHAR, (self - coalesce(swept.covered, 0))::VARCHAR, gym_quantiles.quantiles, max FROM (
          SELECT gym_key, ${key.json === null ? 'NULL' : 'any_value(gym_key_json)'} AS json, count(*) AS count, count(*) FILTER (err) AS errors, sum(n.end_ns - n.start_ns) AS total,
            sum(n.end_ns - n.start_ns - ${covered}) AS self, ${ms('max(n.end_ns - n.start_ns)')} AS max
          FROM gym_nodes n LEFT JOIN gym_kids k ON k.t = n.t AND k.p = n.s
          WHERE NOT truncated AND gym_key IS NOT NULL GROUP BY gym_key) LEFT JOIN (${sweep}) swept USING (gym_key) JOIN gym_quantiles USING (gym_key)`)
    ).getRows();
    const [truncated, ungrouped] = (await c.runAndReadAll(`SELECT count(*) FILTER (truncated), count(*) FILTER (NOT truncated AND gym_key IS NULL) FROM gym_nodes`)).getRows()[0]!;
    // a rollout's wall as `why` counts it: from the collector's CLIENT span around its agent's SERVER span when that is in the input
    // (the SERVER and CLIENT spans narrowed to the rollouts' parents and theirs first: joined to
    // every SERVER and CLIENT span, the hash tables of 20M spans did not fit 256MB)
    const [rolloutCount, rolloutWallNs] = (
      await c.runAndReadAll(`WITH r AS (SELECT t, p, service, start_ns, end_ns FROM gym_nodes WHERE rollout),
          srv AS (SELECT n.t, n.s, n.p FROM gym_nodes n SEMI JOIN r ON n.t = r.t AND n.s = r.p WHERE n.kind = 1),
          cli AS (SELECT n.t, n.s, n.service, n.start_ns, n.end_ns FROM gym_nodes n SEMI JOIN srv ON n.t = srv.t AND n.s = srv.p WHERE n.kind = 2)
        SELECT count(*), coalesce(sum(coalesce(cli.end_ns - cli.start_ns, r.end_ns - r.start_ns)), 0)::VARCHAR FROM r
        LEFT JOIN srv ON srv.t = r.t AND srv.s = r.p
        LEFT JOIN cli ON cli.t = srv.t AND cli.s = srv.p AND cli.service <> r.service`)
    ).getRows()[0]!;
    const rolloutWallMs = nsToMs(BigInt(String(rolloutWallNs)));
    const keyed = namedGroups(rows);
    if (keyed === null) return null;
    const groups = keyed.map(([key, count, errors, totalNs, selfNs, p50, p90, p95, p99, max]): StatsGroup => {
      const totalSelfMs = nsToMs(selfNs);
      return {
        key,
        count,
        errorCount: errors,
        errorRate: errors / count,
        p50,
        p90,
        p95,
        p99,
        max,
        totalMs: nsToMs(totalNs),
        totalSelfMs,
        shareOfRolloutWall: rolloutWallMs > 0 ? totalSelfMs / rolloutWallMs : null,
      };
    });
    groups.sort((x, y) => y.totalSelfMs - x.totalSelfMs || (x.key < y.key ? -1 : 1));
    return { type: 'span_stats', by, groups, rolloutCount: Number(rolloutCount), rolloutWallMs, truncatedExcluded: Number(truncated), ungrouped: Number(ungrouped) };
  } finally {
    await c.run('DROP TABLE IF EXISTS gym_nodes; DROP TABLE IF EXISTS gym_kids; DROP TABLE IF EXISTS gym_quantiles');
  }
}

type GroupRow = [key: string, count: number, errors: number, totalNs: bigint, selfNs: bigint, p50: number, p90: number, p95: number, p99: number, max: number];

/**
 * The groups by their key as the JavaScript path spells it. An attribute's value that is not a
 * string is grouped by its JSON text in SQL and named here by `JSON.stringify` of it, as
 * `keyOf` in `analyze/stats.ts` names it. Null when two texts name one key (`1.0` and `1`): two
 * groups in SQL, one there.
 */
function namedGroups(rows: ReadonlyArray<readonly unknown[]>): GroupRow[] | null {
  const seen = new Set<string>();
  const out: GroupRow[] = [];
  for (const [value, json, count, errors, totalNs, selfNs, quantiles, max] of rows) {
    const key = json === null ? String(value) : JSON.stringify(JSON.parse(String(json)));
    if (seen.has(key)) return null;
    seen.add(key);
    const [p50, p90, p95, p99] = (quantiles as DuckDBListValue).items as number[];
    out.push([key, Number(count), Number(errors), BigInt(String(totalNs)), BigInt(String(selfNs)), p50!, p90!, p95!, p99!, max as number]);
  }
  return out;
}

/** The group of a span (`value`), and for an attribute that is not a string its JSON text (`json`, else NULL; null for a name or service). */
function keySql(by: StatsGrouping): { value: string; json: string | null } {
  switch (by.type) {
    case 'name':
      return { value: 'name', json: null };
    case 'service':
      return { value: 'service', json: null };
    case 'attribute': {
      // a JSON pointer names any key, dots and quotes included
      const path = sqlString(`/${by.key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      const type = `json_type(attributes, ${path})`;
      return {
        value: `CASE WHEN ${type} IS NULL OR ${type} = 'NULL' THEN NULL WHEN ${type} = 'VARCHAR' THEN json_extract_string(attributes, ${path}) ELSE json_extract(attributes, ${path})::VARCHAR END`,
        json: `CASE WHEN ${type} IN ('NULL', 'VARCHAR') THEN NULL ELSE json_extract(attributes, ${path})::VARCHAR END`,
      };
    }
  }
}

/**
 * `gym trace top`'s start from the store: what the run's files held up to the store's end, summed
 * up in SQL — the rollouts done and failed, the slowest, the latest ends for the rate, each
 * process's last event-loop numbers — and the spans of the rollouts still in flight, replayed. The
 * files are then followed from where the store ends, so a run of millions of spans is not parsed
 * again line by line before the first frame.
 * @module
 */
import { ATTR, SPAN } from '../span-record.js';
import { sqlList, sqlString } from '../store/duck.js';
import type { TraceStore } from '../store/open-store.js';
import { readAllSpans, spanRows } from '../store/store-read.js';
import { attr } from '../store/store-views.js';
import { DELAY_P99, ELU, LiveRun, RATE_WINDOW_NS, RECENT_IDS, SLOWEST_SHOWN } from './live-run.js';
import type { ProcessLoop } from './live-run.js';

const ROLLOUT_ID = attr(ATTR.ROLLOUT_ID);

/** A {@link LiveRun} holding what `store` holds. */
export async function liveRunFromStore(store: TraceStore): Promise<LiveRun> {
  const live = new LiveRun();
  const spanParts = store.parts('spans');
  if (spanParts.length === 0) return live;
  const c = store.duck.connection;
  const spans = `read_parquet(${sqlList(spanParts)})`;
  const rollout = sqlString(SPAN.ROLLOUT);
  // one row per rollout id: finished when its gym.rollout span is there, failed when any of its spans is an error
  await c.run(`CREATE OR REPLACE TEMP TABLE top_rollouts AS
    SELECT rid, bool_or(status_code = 'ERROR') AS failed, count(*) AS spans,
      max(end_ns) FILTER (name = ${rollout}) AS end_ns, max(end_ns - start_ns) FILTER (name = ${rollout}) AS duration_ns
    FROM (SELECT ${ROLLOUT_ID} AS rid, name, status_code, start_ns, end_ns FROM ${spans}) WHERE rid IS NOT NULL GROUP BY rid`);
  try {
    const [total, latest] = (await c.runAndReadAll(`SELECT count(*), max(end_ns) FROM ${spans}`)).getRows()[0]!;
    const [done, failed, firstEnd, lastEnd, inFlightSpans] = (
      await c.runAndReadAll(`SELECT count(*) FILTER (end_ns IS NOT NULL AND NOT failed), count(*) FILTER (end_ns IS NOT NULL AND failed),
        min(end_ns), max(end_ns), coalesce(sum(spans) FILTER (end_ns IS NULL), 0) FROM top_rollouts`)
    ).getRows()[0]!;
    const finished = `SELECT rid, failed, end_ns, duration_ns FROM top_rollouts WHERE end_ns IS NOT NULL`;
    const recent = (await c.runAndReadAll(`SELECT rid, failed FROM (${finished} ORDER BY end_ns DESC, rid DESC LIMIT ${RECENT_IDS}) ORDER BY end_ns, rid`)).getRows();
    const slowest = (await c.runAndReadAll(`${finished} ORDER BY duration_ns DESC, end_ns, rid LIMIT ${SLOWEST_SHOWN}`)).getRows();
    const recentEnds =
      lastEnd === null ? [] : (await c.runAndReadAll(`SELECT end_ns FROM top_rollouts WHERE end_ns >= ${(lastEnd as bigint) - RATE_WINDOW_NS} ORDER BY end_ns`)).getRows().map(([e]) => e as bigint);
    live.restore({
      spans: Number(total) - Number(inFlightSpans),
      latestNs: latest as bigint | null,
      done: Number(done),
      failed: Number(failed),
      firstEndNs: firstEnd as bigint | null,
      recentEnds,
      recent: recent.map(([id, f]) => [String(id), f === true]),
      slowest: slowest.map(([id, f, end, d]) => ({ rolloutId: String(id), durationMs: Number(d) / 1e6, failed: f === true, endNs: end as bigint })),
      processes: await lastEventLoops(store),
    });
    // the rollouts in flight at the store's end go through the live view span by span, as the files' next lines will
    const inFlight = `${ROLLOUT_ID} IN (SELECT rid FROM top_rollouts WHERE end_ns IS NULL)`;
    if (Number(inFlightSpans) > 0) for (const s of await readAllSpans(store, await spanRows(store, inFlight), inFlight)) live.span(s);
  } finally {
    await c.run('DROP TABLE IF EXISTS top_rollouts');
  }
  return live;
}

/** Each process's last event-loop utilization and delay p99 (the last value of each, at the latest point of either). */
async function lastEventLoops(store: TraceStore): Promise<ProcessLoop[]> {
  const parts = store.parts('metrics');
  if (parts.length === 0) return [];
  const rows = await store.duck.connection.runAndReadAll(`SELECT service, max(end_ns),
      arg_max(value, end_ns) FILTER (name = ${sqlString(ELU)} AND value IS NOT NULL),
      arg_max(value, end_ns) FILTER (name = ${sqlString(DELAY_P99)} AND value IS NOT NULL)
    FROM read_parquet(${sqlList(parts)}) WHERE name IN (${sqlString(ELU)}, ${sqlString(DELAY_P99)}) GROUP BY service ORDER BY service`);
  return rows.getRows().map(([service, at, elu, delay]) => ({
    service: String(service),
    atNs: at as bigint,
    elu: elu === null ? null : Number(elu),
    delayP99Ms: delay === null ? null : Number(delay) * 1000,
  }));
}

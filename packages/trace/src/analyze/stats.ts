/**
 * Per-group span statistics: counts, errors, exact percentiles, total and self time, share of
 * rollout wall time. Truncated spans (`nemo.span.truncated=true`) are excluded: their end is the
 * shutdown time, not the work's.
 * @module
 */
import type { Rollout } from '../assemble/rollouts.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { isTruncated, nsToMs } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';
import { summarizeDurations } from './percentiles.js';
import { selfTimeNs } from './self-time.js';

/** How spans are grouped: by name, by service, or by the value of one attribute. */
export type StatsGrouping = { type: 'name' } | { type: 'service' } | { type: 'attribute'; key: string };

/** One group's numbers. Durations in ms. */
export interface StatsGroup {
  key: string;
  count: number;
  errorCount: number;
  errorRate: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  totalMs: number;
  totalSelfMs: number;
  /** `totalSelfMs` ÷ the summed wall time of all rollouts; null when there are no rollouts. */
  shareOfRolloutWall: number | null;
}

/** Result of {@link computeStats}. Groups sorted by total self time, largest first. */
export interface SpanStats {
  type: 'span_stats';
  by: StatsGrouping;
  groups: StatsGroup[];
  rolloutCount: number;
  rolloutWallMs: number;
  truncatedExcluded: number;
  /** Spans without the grouping attribute (only for `attribute:<key>`). */
  ungrouped: number;
}

/**
 * Parses `name`, `service` or `attribute:<key>`.
 * @throws TraceUserError `GYM_TRACE_BAD_OPTION` for anything else.
 */
export function parseGrouping(spec: string): StatsGrouping {
  if (spec === 'name' || spec === 'service') return { type: spec };
  if (spec.startsWith('attribute:') && spec.length > 'attribute:'.length) return { type: 'attribute', key: spec.slice('attribute:'.length) };
  throw new TraceUserError(TRACE_ERROR_CODES.badOption, `Unknown --by '${spec}'. Use name, service or attribute:<key> (e.g. attribute:http.route).`);
}

/** Computes per-group statistics over every span of `set`. */
export function computeStats(set: TraceSet, rollouts: readonly Rollout[], by: StatsGrouping = { type: 'name' }): SpanStats {
  const acc = new Map<string, { durations: number[]; errors: number; totalMs: number; selfNs: bigint }>();
  let truncatedExcluded = 0;
  let ungrouped = 0;
  for (const trace of set.traces.values()) {
    for (const node of trace.nodes.values()) {
      const s = node.span;
      if (isTruncated(s)) {
        truncatedExcluded++;
        continue;
      }
      const key = keyOf(s, by);
      if (key === null) {
        ungrouped++;
        continue;
      }
      let a = acc.get(key);
      if (a === undefined) acc.set(key, (a = { durations: [], errors: 0, totalMs: 0, selfNs: 0n }));
      a.durations.push(s.durationMs);
      if (s.status.code === 'ERROR') a.errors++;
      a.totalMs += s.durationMs;
      a.selfNs += selfTimeNs(node);
    }
  }
  const rolloutWallMs = rollouts.reduce((n, r) => n + r.node.span.durationMs, 0);
  const groups: StatsGroup[] = [];
  for (const [key, a] of acc) {
    const d = summarizeDurations(a.durations);
    const totalSelfMs = nsToMs(a.selfNs);
    groups.push({
      key,
      count: d.count,
      errorCount: a.errors,
      errorRate: a.errors / d.count,
      p50: d.p50,
      p90: d.p90,
      p95: d.p95,
      p99: d.p99,
      max: d.max,
      totalMs: a.totalMs,
      totalSelfMs,
      shareOfRolloutWall: rolloutWallMs > 0 ? totalSelfMs / rolloutWallMs : null,
    });
  }
  groups.sort((x, y) => y.totalSelfMs - x.totalSelfMs || (x.key < y.key ? -1 : 1));
  return { type: 'span_stats', by, groups, rolloutCount: rollouts.length, rolloutWallMs, truncatedExcluded, ungrouped };
}

function keyOf(s: SpanRecord, by: StatsGrouping): string | null {
  switch (by.type) {
    case 'name':
      return s.name;
    case 'service':
      return s.service;
    case 'attribute': {
      const v = s.attributes[by.key];
      if (v === undefined || v === null) return null;
      return typeof v === 'string' ? v : JSON.stringify(v);
    }
  }
}

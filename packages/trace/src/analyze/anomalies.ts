/**
 * Things in the telemetry worth a look: truncated spans, orphans, duplicates, rollouts without
 * verification, retried requests, error spans, spans that never ended, traces without a root.
 * @module
 */
import type { Rollout } from '../assemble/rollouts.js';
import { MissingServerAccumulator } from './missing-servers.js';
import type { MissingServerState } from './missing-servers.js';
import { verdictOf } from './verdict.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { isTruncated } from '../span-record.js';
import type { SpanRecord, SpanSource } from '../span-record.js';
import { retryCount } from './retries.js';

interface SpanRef {
  traceId: string;
  spanId: string;
  name: string;
  service: string;
  source: SpanSource;
}

/** One finding; `kind` is the discriminant. */
export type Anomaly =
  | ({ kind: 'truncated_span' } & SpanRef)
  | ({ kind: 'orphan_span'; parentSpanId: string } & SpanRef)
  | { kind: 'duplicate_span'; traceId: string; spanId: string; kept: SpanSource; dropped: SpanSource }
  | { kind: 'missing_verify'; traceId: string; rolloutId: string }
  | { kind: 'missing_server_spans'; callee: string; calleeSeen: boolean; count: number; from: string[]; examples: Array<{ traceId: string; spanId: string; source: SpanSource }> }
  | ({ kind: 'retry'; retries: number; url: string | null } & SpanRef)
  | ({ kind: 'error_span'; message: string | null } & SpanRef)
  | ({ kind: 'unclosed_span'; spanKind: SpanRecord['kind'] } & SpanRef)
  | { kind: 'root_missing'; traceId: string; spanCount: number };

/** Every anomaly kind, in display order. */
export const ANOMALY_KINDS = ['unclosed_span', 'root_missing', 'truncated_span', 'orphan_span', 'missing_server_spans', 'duplicate_span', 'missing_verify', 'error_span', 'retry'] as const;

/** Anomaly kinds. */
export type AnomalyKind = (typeof ANOMALY_KINDS)[number];

/** Findings (at most `maxPerKind` of each kind kept) and the full count per kind. */
export interface AnomalyReport {
  type: 'anomalies';
  counts: Record<AnomalyKind, number>;
  findings: Anomaly[];
  total: number;
}

/** Options of {@link findAnomalies}. */
export interface AnomalyOptions {
  /** Findings kept per kind (all are counted); default 1000. */
  maxPerKind?: number;
}

/** Scans the traces and rollouts for anomalies. */
export function findAnomalies(set: TraceSet, rollouts: readonly Rollout[], options: AnomalyOptions = {}): AnomalyReport {
  const acc = new AnomalyAccumulator(options);
  acc.add(set, rollouts);
  return acc.finish();
}

type RootMissing = { kind: 'root_missing'; traceId: string; spanCount: number };

/** What an {@link AnomalyAccumulator} holds. */
export interface AnomalyState {
  counts: Record<AnomalyKind, number>;
  findings: Anomaly[];
  duplicateCount: number;
  rootMissing: RootMissing[];
  missingServers: MissingServerState;
}

/**
 * {@link findAnomalies} over trace sets read one after the other (a run read in partitions, where
 * one trace may be split over several sets: a trace without its root is reported once).
 */
export class AnomalyAccumulator {
  #max: number;
  #counts = Object.fromEntries(ANOMALY_KINDS.map((k) => [k, 0])) as Record<AnomalyKind, number>;
  #findings: Anomaly[] = [];
  #duplicateCount = 0;
  #rootMissing = new Map<string, RootMissing>();
  #missingServers = new MissingServerAccumulator();

  constructor(options: AnomalyOptions = {}) {
    this.#max = options.maxPerKind ?? 1000;
  }

  #add(a: Anomaly): void {
    if (++this.#counts[a.kind] <= this.#max) this.#findings.push(a);
  }

  add(set: TraceSet, rollouts: readonly Rollout[]): void {
    for (const d of set.duplicates) this.#add({ kind: 'duplicate_span', ...d });
    // Only examples of duplicates are kept by assembly; the count is exact.
    this.#duplicateCount += set.duplicateCount;
    for (const trace of set.traces.values()) {
      if (trace.roots.length > 0 && trace.roots.every((r) => r.orphan)) {
        const seen = this.#rootMissing.get(trace.traceId);
        if (seen !== undefined) seen.spanCount += trace.nodes.size;
        else {
          const a = { kind: 'root_missing' as const, traceId: trace.traceId, spanCount: trace.nodes.size };
          this.#rootMissing.set(trace.traceId, a);
          this.#add(a);
        }
      }
      for (const node of trace.nodes.values()) {
        const s = node.span;
        // the reference to the span is made only for a finding: most spans have none
        if (!s.ended) this.#add({ kind: 'unclosed_span', spanKind: s.kind, ...refOf(s) });
        if (isTruncated(s)) this.#add({ kind: 'truncated_span', ...refOf(s) });
        if (node.orphan) this.#add({ kind: 'orphan_span', parentSpanId: s.parentSpanId ?? '', ...refOf(s) });
        if (s.status.code === 'ERROR') this.#add({ kind: 'error_span', message: s.status.message ?? null, ...refOf(s) });
        if (s.kind === 'CLIENT') {
          const retries = retryCount(s);
          const url = s.attributes['url.full'];
          if (retries > 0) this.#add({ kind: 'retry', retries, url: typeof url === 'string' ? url : null, ...refOf(s) });
        }
      }
    }
    for (const r of rollouts) if (!verdictOf(r).verified) this.#add({ kind: 'missing_verify', traceId: r.traceId, rolloutId: r.rolloutId });
    this.#missingServers.add(set);
  }

  /** What has been added so far, as plain data (for {@link AnomalyAccumulator.merge} in another thread). */
  state(): AnomalyState {
    return { counts: this.#counts, findings: this.#findings, duplicateCount: this.#duplicateCount, rootMissing: [...this.#rootMissing.values()], missingServers: this.#missingServers.state() };
  }

  /**
   * Adds another accumulator's state, as if its sets had been added here after these: its findings
   * fill what is left of each kind's quota, in its order; a trace without a root seen on both sides
   * is one finding (this side's) with the spans of both.
   */
  merge(s: AnomalyState): void {
    const again = new Set<string>();
    const mine = new Map<string, RootMissing>();
    for (const r of s.rootMissing) {
      const seen = this.#rootMissing.get(r.traceId);
      if (seen !== undefined) {
        seen.spanCount += r.spanCount;
        again.add(r.traceId);
      } else {
        const a = { ...r };
        this.#rootMissing.set(r.traceId, a);
        mine.set(r.traceId, a);
      }
    }
    const before = { ...this.#counts };
    const taken = Object.fromEntries(ANOMALY_KINDS.map((k) => [k, 0])) as Record<AnomalyKind, number>;
    for (const f of s.findings) {
      if (f.kind === 'root_missing' && again.has(f.traceId)) continue;
      if (before[f.kind] + ++taken[f.kind] <= this.#max) this.#findings.push(f.kind === 'root_missing' ? (mine.get(f.traceId) ?? f) : f);
    }
    for (const k of ANOMALY_KINDS) this.#counts[k] += s.counts[k] - (k === 'root_missing' ? again.size : 0);
    this.#duplicateCount += s.duplicateCount;
    this.#missingServers.merge(s.missingServers);
  }

  finish(): AnomalyReport {
    const counts = { ...this.#counts, duplicate_span: this.#duplicateCount };
    const findings = [...this.#findings];
    // One finding per callee; the count is the number of SERVER spans missing.
    for (const m of this.#missingServers.finish()) {
      if (counts.missing_server_spans < this.#max) findings.push({ kind: 'missing_server_spans', ...m });
      counts.missing_server_spans += m.count;
    }
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    return { type: 'anomalies', counts, findings, total };
  }
}

function refOf(s: SpanRecord): SpanRef {
  return { traceId: s.traceId, spanId: s.spanId, name: s.name, service: s.service, source: s.source };
}

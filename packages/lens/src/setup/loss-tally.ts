/**
 * The exact count of telemetry a process lost. Every item is counted once when it enters the
 * pipeline (a sampled span reaching the batch processor, a log record reaching its processor, a
 * metric point handed to the exporter) and once when an export of it succeeds; whatever entered and
 * was never confirmed exported is lost — refused, failed, dropped by a full queue, still queued, or
 * never answered (a silent collector) when the process stopped. So the total is right whatever the
 * exporter and whatever went wrong, not only for the failures that happened to report themselves.
 * @module
 */

/** A telemetry signal as counted: spans, metric points or log records. */
export type LossSignal = 'spans' | 'metric points' | 'log records';

/** Counts of one signal. */
export interface SignalLosses {
  /** Items that entered the pipeline. */
  accepted: number;
  /** Items an exporter confirmed. */
  exported: number;
  /** Items whose export an exporter reported as failed (refused, error, timeout of its own). */
  failed: number;
  /** `accepted - exported`: everything not delivered, whatever the reason. */
  lost: number;
}

/** Counts of every signal. */
export type TelemetryLosses = Record<LossSignal, SignalLosses>;

const SIGNALS: readonly LossSignal[] = ['spans', 'metric points', 'log records'];

/** Accepted / exported / failed counts per signal, and how many export answers arrived. */
export class LossTally {
  readonly #counts = new Map<LossSignal, { accepted: number; exported: number; failed: number }>(SIGNALS.map((s) => [s, { accepted: 0, exported: 0, failed: 0 }]));
  #answers = 0;
  #firstFailure: string | undefined;

  accepted(signal: LossSignal, count: number): void {
    this.#counts.get(signal)!.accepted += count;
  }

  exported(signal: LossSignal, count: number): void {
    this.#counts.get(signal)!.exported += count;
    this.#answers++;
  }

  failed(signal: LossSignal, count: number, reason: string): void {
    this.#counts.get(signal)!.failed += count;
    this.#firstFailure ??= reason;
    this.#answers++;
  }

  /** Export answers (success or failure) so far: shutdown waits while this grows. */
  get answers(): number {
    return this.#answers;
  }

  /** The counts now. */
  losses(): TelemetryLosses {
    const out = {} as TelemetryLosses;
    for (const [signal, c] of this.#counts) out[signal] = { ...c, lost: Math.max(0, c.accepted - c.exported) };
    return out;
  }

  /**
   * One sentence about everything lost, or `undefined` when nothing was:
   * `106 of 110 spans and 3 of 3 log records were not delivered (100 refused or failed: <first
   * reason>; 9 still queued or unanswered when telemetry stopped)`.
   */
  describe(): string | undefined {
    const losses = this.losses();
    const lost = SIGNALS.filter((s) => losses[s].lost > 0);
    if (lost.length === 0) return undefined;
    const parts = lost.map((s) => `${losses[s].lost} of ${losses[s].accepted} ${s}`);
    const failed = lost.reduce((n, s) => n + Math.min(losses[s].failed, losses[s].lost), 0);
    const unanswered = lost.reduce((n, s) => n + losses[s].lost, 0) - failed;
    const why: string[] = [];
    if (failed > 0) why.push(`${failed} refused or failed${this.#firstFailure === undefined ? '' : `: ${this.#firstFailure}`}`);
    if (unanswered > 0) why.push(`${unanswered} dropped, still queued or unanswered when telemetry stopped`);
    const list = parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]!}`;
    return `${list} ${lost.length === 1 && losses[lost[0]!].lost === 1 ? 'was' : 'were'} not delivered (${why.join('; ')}).`;
  }
}

/** Metric points (data points) in one export batch of the metrics SDK. */
export function countMetricPoints(batch: { scopeMetrics: ReadonlyArray<{ metrics: ReadonlyArray<{ dataPoints: readonly unknown[] }> }> }): number {
  let points = 0;
  for (const scope of batch.scopeMetrics) for (const metric of scope.metrics) points += metric.dataPoints.length;
  return points;
}

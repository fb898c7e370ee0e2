/**
 * gym's metric instruments, created once per telemetry setup on its meter. Attribute values are
 * bounded (routes, methods, statuses, outcomes — never ids).
 * @module
 */
import type { Counter, Gauge, Histogram, Meter } from '@opentelemetry/api';
import type { BoundHistogram, LeanCounter, LeanHistogram, LeanHistogramOptions, LeanInstrumentOptions } from '@gym/lens';
import { HTTP_DURATION_S_BUCKETS, METRIC, STARTUP_MS_BUCKETS, UNIT } from './attributes.js';

/** Every instrument gym records. */
export interface GymInstruments {
  /** Recorded once per rollout, without attributes: bound once (no attribute hashing per record). */
  rolloutDuration: BoundHistogram;
  /** Added to once per rollout: bound once per outcome. */
  rolloutCompleted: LeanCounter;
  /** Recorded once per /verify, without attributes: bound once. */
  verifyDuration: BoundHistogram;
  serversActive: Gauge;
  serverStartupDuration: Histogram;
  /** Recorded on every request: bound once per method/route/status (route-metrics.ts). */
  httpServerDuration: LeanHistogram;
  /** Recorded on every model call: bound once per dialect and server. */
  modelCallDuration: LeanHistogram;
  httpRetryTotal: Counter;
  /**
   * Process-local tally behind `gym.verify.success_rate` (cumulative since start, as the original),
   * observed at each collection rather than recorded on every /verify.
   */
  verifyTally: { calls: number; completed: number };
}

/** Makes instruments whose attribute sets are bound once (lens's `getLeanHistogram` / `getLeanCounter` for gym's scope). */
export interface LeanInstrumentFactory {
  histogram(name: string, options: LeanHistogramOptions): LeanHistogram;
  counter(name: string, options: LeanInstrumentOptions): LeanCounter;
}

/**
 * Creates the instruments on `meter`; those recorded per request or per rollout through `lean`
 * (the SDK's `record` hashes the attributes and walks its storage on every call, about a tenth of
 * what the agent's telemetry adds per rollout outside the spans, BENCHMARKS.md `floor`).
 */
export function createInstruments(meter: Meter, lean: LeanInstrumentFactory): GymInstruments {
  const verifyTally = { calls: 0, completed: 0 };
  meter
    .createObservableGauge(METRIC.VERIFY_SUCCESS_RATE, { description: 'Fraction of /verify calls that completed, since process start' })
    // no point before the first /verify, as when it was recorded on each one
    .addCallback((result) => {
      if (verifyTally.calls > 0) result.observe(verifyTally.completed / verifyTally.calls);
    });
  return {
    rolloutDuration: lean.histogram(METRIC.ROLLOUT_DURATION, { unit: UNIT.MILLISECONDS, description: 'Wall-clock duration of one rollout (/run), failures included' }).bind({}),
    rolloutCompleted: lean.counter(METRIC.ROLLOUT_COMPLETED, { unit: UNIT.COUNT, description: 'Rollouts finished, by outcome' }),
    verifyDuration: lean.histogram(METRIC.VERIFY_DURATION, { unit: UNIT.MILLISECONDS, description: 'Wall-clock duration of one /verify' }).bind({}),
    serversActive: meter.createGauge(METRIC.SERVERS_ACTIVE, { description: 'Server instances started by the orchestrator' }),
    serverStartupDuration: meter.createHistogram(METRIC.SERVER_STARTUP_DURATION, {
      unit: UNIT.MILLISECONDS,
      description: 'Spawn to first answered health probe, per server',
      advice: { explicitBucketBoundaries: STARTUP_MS_BUCKETS },
    }),
    httpServerDuration: lean.histogram(METRIC.HTTP_SERVER_DURATION, { unit: UNIT.SECONDS, description: 'Duration of HTTP server requests', boundaries: HTTP_DURATION_S_BUCKETS }),
    modelCallDuration: lean.histogram(METRIC.MODEL_CALL_DURATION, { unit: UNIT.MILLISECONDS, description: 'Duration of one model call on the model server' }),
    httpRetryTotal: meter.createCounter(METRIC.HTTP_RETRY_TOTAL, { unit: UNIT.COUNT, description: 'Retried HTTP attempts of the gym client, by reason' }),
    verifyTally,
  };
}

/**
 * gym's metric instruments, created once per telemetry setup on its meter. Attribute values are
 * bounded (routes, methods, statuses, outcomes — never ids).
 * @module
 */
import type { Counter, Gauge, Histogram, Meter } from '@opentelemetry/api';
import type { LeanCounter, LeanHistogram, LeanHistogramOptions, LeanInstrumentOptions } from '@gym/lens';
import { HTTP_DURATION_S_BUCKETS, METRIC, STARTUP_MS_BUCKETS, UNIT } from './attributes.js';

/** Every instrument gym records. */
export interface GymInstruments {
  rolloutDuration: Histogram;
  /** Added to once per rollout: bound once per outcome. */
  rolloutCompleted: LeanCounter;
  verifyDuration: Histogram;
  verifySuccessRate: Gauge;
  serversActive: Gauge;
  serverStartupDuration: Histogram;
  /** Recorded on every request: bound once per method/route/status (route-metrics.ts). */
  httpServerDuration: LeanHistogram;
  /** Recorded on every model call: bound once per dialect and server. */
  modelCallDuration: LeanHistogram;
  httpRetryTotal: Counter;
  /** Process-local tally behind `gym.verify.success_rate` (cumulative since start, as the original). */
  verifyTally: { calls: number; completed: number };
}

/** Makes instruments whose attribute sets are bound once (lens's `getLeanHistogram` / `getLeanCounter` for gym's scope). */
export interface LeanInstrumentFactory {
  histogram(name: string, options: LeanHistogramOptions): LeanHistogram;
  counter(name: string, options: LeanInstrumentOptions): LeanCounter;
}

/** Creates the instruments on `meter`; those recorded per request with attributes through `lean`. */
export function createInstruments(meter: Meter, lean: LeanInstrumentFactory): GymInstruments {
  const ms = (name: string, description: string, buckets?: number[]) =>
    meter.createHistogram(name, { unit: UNIT.MILLISECONDS, description, ...(buckets === undefined ? {} : { advice: { explicitBucketBoundaries: buckets } }) });
  return {
    rolloutDuration: ms(METRIC.ROLLOUT_DURATION, 'Wall-clock duration of one rollout (/run), failures included'),
    rolloutCompleted: lean.counter(METRIC.ROLLOUT_COMPLETED, { unit: UNIT.COUNT, description: 'Rollouts finished, by outcome' }),
    verifyDuration: ms(METRIC.VERIFY_DURATION, 'Wall-clock duration of one /verify'),
    verifySuccessRate: meter.createGauge(METRIC.VERIFY_SUCCESS_RATE, { description: 'Fraction of /verify calls that completed, since process start' }),
    serversActive: meter.createGauge(METRIC.SERVERS_ACTIVE, { description: 'Server instances started by the orchestrator' }),
    serverStartupDuration: ms(METRIC.SERVER_STARTUP_DURATION, 'Spawn to first answered health probe, per server', STARTUP_MS_BUCKETS),
    httpServerDuration: lean.histogram(METRIC.HTTP_SERVER_DURATION, { unit: UNIT.SECONDS, description: 'Duration of HTTP server requests', boundaries: HTTP_DURATION_S_BUCKETS }),
    modelCallDuration: lean.histogram(METRIC.MODEL_CALL_DURATION, { unit: UNIT.MILLISECONDS, description: 'Duration of one model call on the model server' }),
    httpRetryTotal: meter.createCounter(METRIC.HTTP_RETRY_TOTAL, { unit: UNIT.COUNT, description: 'Retried HTTP attempts of the gym client, by reason' }),
    verifyTally: { calls: 0, completed: 0 },
  };
}

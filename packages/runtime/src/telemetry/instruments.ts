/**
 * gym's metric instruments, created once per telemetry setup on its meter. Attribute values are
 * bounded (routes, methods, statuses, outcomes — never ids).
 * @module
 */
import type { Counter, Gauge, Histogram, Meter } from '@opentelemetry/api';
import { HTTP_DURATION_S_BUCKETS, METRIC, STARTUP_MS_BUCKETS, UNIT } from './attributes.js';

/** Every instrument gym records. */
export interface GymInstruments {
  rolloutDuration: Histogram;
  rolloutCompleted: Counter;
  verifyDuration: Histogram;
  verifySuccessRate: Gauge;
  serversActive: Gauge;
  serverStartupDuration: Histogram;
  httpServerDuration: Histogram;
  modelCallDuration: Histogram;
  httpRetryTotal: Counter;
  /** Process-local tally behind `gym.verify.success_rate` (cumulative since start, as the original). */
  verifyTally: { calls: number; completed: number };
}

/** Creates the instruments on `meter`. */
export function createInstruments(meter: Meter): GymInstruments {
  const ms = (name: string, description: string, buckets?: number[]) =>
    meter.createHistogram(name, { unit: UNIT.MILLISECONDS, description, ...(buckets === undefined ? {} : { advice: { explicitBucketBoundaries: buckets } }) });
  return {
    rolloutDuration: ms(METRIC.ROLLOUT_DURATION, 'Wall-clock duration of one rollout (/run), failures included'),
    rolloutCompleted: meter.createCounter(METRIC.ROLLOUT_COMPLETED, { unit: UNIT.COUNT, description: 'Rollouts finished, by outcome' }),
    verifyDuration: ms(METRIC.VERIFY_DURATION, 'Wall-clock duration of one /verify'),
    verifySuccessRate: meter.createGauge(METRIC.VERIFY_SUCCESS_RATE, { description: 'Fraction of /verify calls that completed, since process start' }),
    serversActive: meter.createGauge(METRIC.SERVERS_ACTIVE, { description: 'Server instances started by the orchestrator' }),
    serverStartupDuration: ms(METRIC.SERVER_STARTUP_DURATION, 'Spawn to first answered health probe, per server', STARTUP_MS_BUCKETS),
    httpServerDuration: meter.createHistogram(METRIC.HTTP_SERVER_DURATION, {
      unit: UNIT.SECONDS,
      description: 'Duration of HTTP server requests',
      advice: { explicitBucketBoundaries: HTTP_DURATION_S_BUCKETS },
    }),
    modelCallDuration: ms(METRIC.MODEL_CALL_DURATION, 'Duration of one model call on the model server'),
    httpRetryTotal: meter.createCounter(METRIC.HTTP_RETRY_TOTAL, { unit: UNIT.COUNT, description: 'Retried HTTP attempts of the gym client, by reason' }),
    verifyTally: { calls: 0, completed: 0 },
  };
}

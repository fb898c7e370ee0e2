/**
 * The batch span processor's sizing from the standard `OTEL_BSP_*` variables, which the SDK's own
 * processor does not read when it is given options in code. A value that is not a positive integer
 * is ignored with one warning: telemetry never stops a process over a tuning knob.
 * @module
 */
import { lensWarn, LENS_WARNINGS } from '../warnings.js';
import { readEnv } from './env.js';
import type { Env } from './env.js';
import type { BatchOptions } from './types.js';

const VARIABLES: ReadonlyArray<[keyof BatchOptions, string]> = [
  ['maxQueueSize', 'OTEL_BSP_MAX_QUEUE_SIZE'],
  ['maxExportBatchSize', 'OTEL_BSP_MAX_EXPORT_BATCH_SIZE'],
  ['scheduledDelayMillis', 'OTEL_BSP_SCHEDULE_DELAY'],
  ['exportTimeoutMillis', 'OTEL_BSP_EXPORT_TIMEOUT'],
];

/** The batch options `env` sets (only those it sets, and validly). */
export function batchOptionsFromEnv(env: Env): BatchOptions {
  const options: BatchOptions = {};
  for (const [key, variable] of VARIABLES) {
    const raw = readEnv(env, variable);
    if (raw === undefined) continue;
    const value = Number(raw);
    if (Number.isInteger(value) && value > 0) options[key] = value;
    else lensWarn(LENS_WARNINGS.SETUP_DEGRADED, `${variable}=${JSON.stringify(raw)} is not a positive integer; the default is used.`);
  }
  return options;
}

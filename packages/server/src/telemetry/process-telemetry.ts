/**
 * What a gym process plugs in when telemetry is on: the HTTP client's instrumentation, the server
 * ingress's instrumentation and pino's trace-correlation options. All `undefined` / `{}` when off,
 * so a process without telemetry configures nothing.
 * @module
 */
import type { LoggerOptions } from 'pino';
import type { RequestInstrumentation } from '../http/instrumentation.js';
import type { ServerInstrumentation } from '../server/instrumentation.js';
import { createClientInstrumentation } from './client-instrumentation.js';
import { createServerInstrumentation } from './server-instrumentation.js';
import type { GymTelemetry } from './state.js';

/** The instrumentation seams of one process. */
export interface ProcessTelemetry {
  client: RequestInstrumentation | undefined;
  server: ServerInstrumentation | undefined;
  /** Spread into `pino({...})`: adds trace ids to records (and exports them when logs are on). */
  loggerOptions: Pick<LoggerOptions, 'mixin' | 'hooks'>;
}

/** The seams for `telemetry`, or none. */
export function processTelemetry(telemetry: GymTelemetry | undefined): ProcessTelemetry {
  if (telemetry === undefined) return { client: undefined, server: undefined, loggerOptions: {} };
  return {
    client: createClientInstrumentation(telemetry),
    server: createServerInstrumentation(telemetry),
    loggerOptions: telemetry.loggerOptions,
  };
}

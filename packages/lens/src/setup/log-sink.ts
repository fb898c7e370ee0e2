/**
 * The OpenTelemetry logger lens bridges application logs into while logs are enabled. Holds no
 * SDK: the logger comes from the global logger provider registered by `setupTelemetry`.
 * @module
 */
import type { Logger } from '@opentelemetry/api-logs';

let sink: Logger | undefined;

/** The bridge logger, or `undefined` while telemetry logs are off. */
export function getLogSink(): Logger | undefined {
  return sink;
}

/** Installs or clears the bridge logger (setup and shutdown only). */
export function setLogSink(logger: Logger | undefined): void {
  sink = logger;
}

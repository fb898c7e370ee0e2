/**
 * The `otlp` exporter: traces, metrics and logs over gRPC (default), `http/protobuf` or `http/json`.
 * Only the module of the chosen transport is imported. Endpoint, headers, TLS, timeouts and
 * compression are read from the standard `OTEL_EXPORTER_OTLP_*` variables (of `process.env`) by the
 * OpenTelemetry exporters themselves.
 * @module
 */
import type { LogRecordExporter } from '@opentelemetry/sdk-logs';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { readEnv } from '../env.js';
import type { Env } from '../env.js';
import { LensConfigError } from '../errors.js';

/** OTLP transports, as spelled in `OTEL_EXPORTER_OTLP_PROTOCOL`. */
export const OTLP_PROTOCOLS = ['grpc', 'http/protobuf', 'http/json'] as const;
/** One OTLP transport. */
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];
/** A telemetry signal. */
export type Signal = 'traces' | 'metrics' | 'logs';

/**
 * The protocol for `signal`: `OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL`, else
 * `OTEL_EXPORTER_OTLP_PROTOCOL`, else `grpc`; trimmed and lower-cased.
 * @throws LensConfigError for any other value, naming the variable and the valid protocols.
 */
export function otlpProtocol(signal: Signal, env: Env): OtlpProtocol {
  const specific = `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`;
  for (const variable of [specific, 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const value = readEnv(env, variable)?.toLowerCase();
    if (value === undefined) continue;
    if ((OTLP_PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
    throw new LensConfigError(variable, value, OTLP_PROTOCOLS);
  }
  return 'grpc';
}

/** An OTLP span exporter for the configured protocol. */
export async function createOtlpSpanExporter(env: Env): Promise<SpanExporter> {
  switch (otlpProtocol('traces', env)) {
    case 'grpc':
      return new (await import('@opentelemetry/exporter-trace-otlp-grpc')).OTLPTraceExporter();
    case 'http/protobuf':
      return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
    case 'http/json':
      return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
  }
}

/** An OTLP metric exporter for the configured protocol. */
export async function createOtlpMetricExporter(env: Env): Promise<PushMetricExporter> {
  switch (otlpProtocol('metrics', env)) {
    case 'grpc':
      return new (await import('@opentelemetry/exporter-metrics-otlp-grpc')).OTLPMetricExporter();
    case 'http/protobuf':
      return new (await import('@opentelemetry/exporter-metrics-otlp-proto')).OTLPMetricExporter();
    case 'http/json':
      return new (await import('@opentelemetry/exporter-metrics-otlp-http')).OTLPMetricExporter();
  }
}

/** An OTLP log exporter for the configured protocol (unlike the original, the protocol is honoured). */
export async function createOtlpLogExporter(env: Env): Promise<LogRecordExporter> {
  switch (otlpProtocol('logs', env)) {
    case 'grpc':
      return new (await import('@opentelemetry/exporter-logs-otlp-grpc')).OTLPLogExporter();
    case 'http/protobuf':
      return new (await import('@opentelemetry/exporter-logs-otlp-proto')).OTLPLogExporter();
    case 'http/json':
      return new (await import('@opentelemetry/exporter-logs-otlp-http')).OTLPLogExporter();
  }
}

/**
 * Picking exporters by `config.exporter`.
 * @module
 */
import type { InstrumentationScope } from '@opentelemetry/core';
import type { LogRecordExporter } from '@opentelemetry/sdk-logs';
import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { EXPORTER_NAMES } from '../config.js';
import type { Env } from '../env.js';
import { LensConfigError } from '../errors.js';
import type { OutputStream } from './json-lines-writer.js';

/** Where the exporters come from. */
export interface ExporterFactory {
  span(): Promise<SpanExporter>;
  metric(): Promise<PushMetricExporter>;
  log(): Promise<LogRecordExporter>;
}

/**
 * The exporter factory for `name` (`otlp` or `console`; `ownScope`: see `SetupTelemetryOptions.ownScope`).
 * @throws LensConfigError for any other name, listing the valid ones.
 */
export function exporterFactory(name: string, env: Env, output: OutputStream, variable = 'exporter', ownScope?: InstrumentationScope): ExporterFactory {
  const normalised = name.trim().toLowerCase();
  if (normalised === 'console') {
    const load = () => import('./console.js');
    return {
      span: async () => new (await load()).ConsoleSpanExporter(output, ownScope),
      metric: async () => new (await load()).ConsoleMetricExporter(output, ownScope),
      log: async () => new (await load()).ConsoleLogRecordExporter(output, ownScope),
    };
  }
  if (normalised === 'otlp') {
    const load = () => import('./otlp.js');
    return {
      span: async () => (await load()).createOtlpSpanExporter(env),
      metric: async () => (await load()).createOtlpMetricExporter(env),
      log: async () => (await load()).createOtlpLogExporter(env),
    };
  }
  throw new LensConfigError(variable, name, EXPORTER_NAMES);
}

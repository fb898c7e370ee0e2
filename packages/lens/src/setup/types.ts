/**
 * Option and handle types of `setupTelemetry`.
 * @module
 */
import type { Attributes, Meter, Tracer } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { LogRecordExporter } from '@opentelemetry/sdk-logs';
import type { IMetricReader } from '@opentelemetry/sdk-metrics';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Env } from './env.js';
import type { OutputStream } from './exporters/json-lines-writer.js';
import type { TelemetryLosses } from './loss-tally.js';
import type { DetectResourceOptions } from './resources/detect.js';

/** Batch span processor sizing. Defaults sized for 16k concurrent rollouts. */
export interface BatchOptions {
  /** Spans held before export; beyond this they are dropped (and counted). Default 65 536. */
  maxQueueSize?: number;
  /** Spans per export call. Default 256; 1024 for the OTLP exporters lens makes. */
  maxExportBatchSize?: number;
  /** Delay between scheduled exports. Default 100 ms; 500 ms for the OTLP exporters lens makes. */
  scheduledDelayMillis?: number;
  /** How long one export may take before it is abandoned. Default 30 000 ms. */
  exportTimeoutMillis?: number;
}

/** Options of `setupTelemetry`. */
export interface SetupTelemetryOptions {
  /** Resource attributes that win over everything else. */
  resourceAttributes?: Attributes;
  /** Resource attributes that lose to everything else. */
  resourceAttributeDefaults?: Attributes;
  /** Replaces the configured span exporter (still behind the open-span closer and the batch processor). */
  spanExporter?: SpanExporter;
  /** Replaces the whole periodic metric reader. */
  metricReader?: IMetricReader;
  /** Replaces the configured log record exporter (still batched). */
  logRecordExporter?: LogRecordExporter;
  /** Allows a second enabled setup in one process, replacing the global providers. Tests only. */
  allowReinit?: boolean;
  /** Batch span processor sizing. */
  batch?: BatchOptions;
  /** Metric export period in ms; wins over `OTEL_METRIC_EXPORT_INTERVAL` (default 10 000). */
  metricExportIntervalMs?: number;
  /** Stream of the `console` exporter. Default `process.stdout`. */
  output?: OutputStream;
  /**
   * The instrumentation scope of the caller's own spans: the `console` exporter states it once in
   * its resource record, and the lines of spans in it leave it out. Default: none (every line names its scope).
   */
  ownScope?: InstrumentationScope;
  /** Environment to read. Default `process.env` (the OTLP exporters always read `process.env`). */
  env?: Env;
  /** Resource detector options (tests). */
  detect?: DetectResourceOptions;
  /**
   * How the active context follows the code: `implicit` (default) through promises with Node's
   * AsyncLocalStorage; `explicit` only within the synchronous part of `context.with()`, for code
   * that passes its parent across `await` itself (no per-promise hook on Node 20).
   */
  asyncContext?: 'implicit' | 'explicit';
}

/** What `setupTelemetry` returns. */
export interface TelemetryHandle {
  /** Tracer of scope `nemo.lens` from the global provider; a no-op tracer when disabled. */
  readonly tracer: Tracer;
  /** Meter of scope `nemo.lens`; a no-op meter when disabled. */
  readonly meter: Meter;
  /** Whether this process exports telemetry (the config was enabled and the SDK not disabled). */
  readonly isExporting: boolean;
  /** The logical resource attributes of this process (`{}` when disabled). */
  readonly resourceAttributes: Readonly<Attributes>;
  /**
   * Ends still-open spans (marked truncated), then flushes and shuts down traces, metrics and logs,
   * each bounded by `timeoutMs` (default 5000) and given up sooner when no export answers for 1.5 s
   * (a silent collector). Idempotent: later calls return the same promise. Never rejects; losses
   * are counted exactly and reported as one LENS_W011 warning.
   */
  shutdown(timeoutMs?: number): Promise<void>;
  /** Exports everything buffered now, bounded by `timeoutMs` (default 5000). Never rejects. */
  forceFlush(timeoutMs?: number): Promise<void>;
  /** Spans dropped so far because the batch queue was full. */
  droppedSpans(): number;
  /**
   * What this process lost so far, per signal: items that entered the pipeline and were never
   * confirmed exported (refused, failed, dropped, or unanswered when shutdown gave up). All zeros
   * when disabled. After `shutdown()` the totals are final, and reported once as LENS_W011.
   */
  losses(): TelemetryLosses;
}

/**
 * Building and registering the SDK providers. This module statically imports the SDK, so it is only
 * ever loaded through `import()` by `setupTelemetry` when telemetry is enabled.
 * @module
 */
import { context, metrics, propagation, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import type { LogRecordProcessor } from '@opentelemetry/sdk-logs';
import { InstrumentType, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { IMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, SamplingDecision } from '@opentelemetry/sdk-trace-base';
import type { Sampler, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { Resource } from '@opentelemetry/resources';
import { setLeanMetrics } from '../fast-tracer/lean-metrics.js';
import { setLeanPipeline } from '../fast-tracer/lean-tracer.js';
import type { LeanPipeline } from '../fast-tracer/lean-tracer.js';
import { DEFAULT_SCOPE } from '../tracer.js';
import { lensWarn, LENS_WARNINGS } from '../warnings.js';
import type { NemoLensConfig } from './config.js';
import { batchOptionsFromEnv } from './batch-env.js';
import { readEnv } from './env.js';
import type { Env } from './env.js';
import { ExportMonitor } from './export-monitor.js';
import type { TelemetryLosses } from './loss-tally.js';
import type { ConsoleSpanExporter } from './exporters/console.js';
import { exporterFactory } from './exporters/select.js';
import { LeanMetricsProducer } from './lean-metrics-producer.js';
import { setLogSink } from './log-sink.js';
import { OpenSpanCloser } from './open-span-closer.js';
import { reportingLogExporter, reportingMetricExporter, reportingSpanExporter } from './reporting-exporters.js';
import { samplerFromEnv } from './sampler.js';
import { settle } from './settle.js';
import { SynchronousContextManager } from './synchronous-context-manager.js';
import type { SetupTelemetryOptions } from './types.js';

/** The running pipeline: what the handle flushes and shuts down. */
export interface Pipeline {
  forceFlush(timeoutMs: number): Promise<void>;
  shutdown(timeoutMs: number): Promise<void>;
  droppedSpans(): number;
  losses(): TelemetryLosses;
}

/**
 * How long a shutdown waits without any export answering before it gives up (a collector that
 * accepts connections and never answers): short, so stopping a run never waits on it for long.
 */
export const SHUTDOWN_STALL_MS = 1500;

const DEFAULT_METRIC_INTERVAL_MS = 10_000;

/**
 * Batch defaults of the console writer and of any exporter given in code: small, frequent batches,
 * so a span leaves while it is young, before the collector has to copy it (measured: 8-10 % less
 * CPU per rollout than 4096 every second, BENCHMARKS.md `cpu-ab`).
 */
const LOCAL_BATCH = { maxExportBatchSize: 256, scheduledDelayMillis: 100 };
/** Batch defaults of the OTLP exporters lens makes. */
const OTLP_BATCH = { maxExportBatchSize: 1024, scheduledDelayMillis: 500 };

/**
 * Bench only (BENCHMARKS.md, `cpu-ab`): lean spans go through the batch processor to the console
 * exporter, as before they were written as they end, so a side-by-side run can price the difference.
 */
const BENCH_VIA_BATCH_PROCESSOR = process.env['GYM_BENCH_LEAN_SPANS_VIA_BATCH'] === '1';

/**
 * Builds the providers for an enabled config and registers them globally with the async-local
 * context manager and the W3C trace-context + baggage propagator. Exporters are created before
 * anything is registered, so a configuration error leaves the process untouched.
 * @throws LensConfigError for an unknown exporter or OTLP protocol.
 */
export async function buildProviders(config: NemoLensConfig, env: Env, attributes: Attributes, options: SetupTelemetryOptions): Promise<Pipeline> {
  const factory = exporterFactory(config.exporter, env, options.output ?? process.stdout, 'NemoLensConfig.exporter', options.ownScope);
  const monitor = new ExportMonitor();
  const spanExporter = config.tracesEnabled ? (options.spanExporter ?? (await factory.span())) : undefined;
  const metricExporter = config.metricsEnabled && !options.metricReader ? await factory.metric() : undefined;
  const logExporter = config.logsEnabled ? (options.logRecordExporter ?? (await factory.log())) : undefined;

  const resource = defaultResource().merge(resourceFromAttributes(attributes));
  if (options.allowReinit) disableGlobals();

  let tracerProvider: BasicTracerProvider | undefined;
  let directWriter: ConsoleSpanExporter | undefined;
  const closer = new OpenSpanCloser();
  if (spanExporter) {
    // code wins over the standard variables, which win over lens's defaults
    const batch = { ...batchOptionsFromEnv(env), ...options.batch };
    // over OTLP, fewer and larger exports: each one is a gRPC call (or HTTP request) whose fixed
    // cost outweighs what the garbage collector pays for spans that wait longer (BENCHMARKS.md `otlp-span`)
    const sizing = options.spanExporter === undefined && config.exporter.trim().toLowerCase() === 'otlp' ? OTLP_BATCH : LOCAL_BATCH;
    const bspConfig = {
      maxQueueSize: batch.maxQueueSize ?? 65_536,
      maxExportBatchSize: batch.maxExportBatchSize ?? sizing.maxExportBatchSize,
      scheduledDelayMillis: batch.scheduledDelayMillis ?? sizing.scheduledDelayMillis,
      exportTimeoutMillis: batch.exportTimeoutMillis ?? 30_000,
      // not in the shim's BufferConfig type, but passed through to @opentelemetry/sdk-trace's BSP
      selfObsMeterProvider: monitor.meterProvider,
    };
    const bsp = countingSpanProcessor(new BatchSpanProcessor(reportingSpanExporter(spanExporter, monitor), bspConfig), monitor);
    const sampler = samplerFromEnv(env);
    // closer first: the multi-processor shuts processors down in order, so truncated spans reach the BSP
    tracerProvider = new BasicTracerProvider({ resource, sampler, spanProcessors: [closer, bsp] });
    // lens's console exporter writes lean spans as they end (the batch processor is for SDK spans)
    directWriter = options.spanExporter === undefined && !BENCH_VIA_BATCH_PROCESSOR ? writingAsTheyEnd(spanExporter, bspConfig, monitor) : undefined;
    if (!trace.setGlobalTracerProvider(tracerProvider)) degraded('tracer provider');
    else setLeanPipeline(leanPipeline(resource, sampler, closer, directWriter === undefined ? bsp : writtenAsTheyEnd(directWriter, monitor)));
  }

  let meterProvider: MeterProvider | undefined;
  if (config.metricsEnabled) {
    // lens's own pre-bound instruments join what the reader lens builds collects; with a reader of
    // the caller's, they record on the SDK's instruments instead (lean-metrics.ts)
    let leanMetrics: LeanMetricsProducer | undefined;
    let reader: IMetricReader;
    if (options.metricReader !== undefined) reader = options.metricReader;
    else {
      leanMetrics = new LeanMetricsProducer(resource);
      const periodic = new PeriodicExportingMetricReader({
        exporter: reportingMetricExporter(metricExporter!, monitor),
        exportIntervalMillis: options.metricExportIntervalMs ?? metricInterval(env),
        metricProducers: [leanMetrics],
      });
      leanMetrics.useTemporality((kind) => periodic.selectAggregationTemporality(kind === 'histogram' ? InstrumentType.HISTOGRAM : InstrumentType.COUNTER));
      reader = periodic;
    }
    meterProvider = new MeterProvider({ resource, readers: [reader] });
    if (!metrics.setGlobalMeterProvider(meterProvider)) degraded('meter provider');
    else setLeanMetrics(leanMetrics);
  }

  let loggerProvider: LoggerProvider | undefined;
  if (logExporter) {
    const processor = countingLogProcessor(new BatchLogRecordProcessor({ exporter: reportingLogExporter(logExporter, monitor) }), monitor);
    loggerProvider = new LoggerProvider({ resource, processors: [processor] });
    logs.setGlobalLoggerProvider(loggerProvider);
    setLogSink(logs.getLogger(DEFAULT_SCOPE));
  }

  const contextManager = options.asyncContext === 'explicit' ? new SynchronousContextManager() : new AsyncLocalStorageContextManager();
  if (!context.setGlobalContextManager(contextManager.enable())) degraded('context manager');
  const propagator = new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] });
  if (!propagation.setGlobalPropagator(propagator)) degraded('propagator');

  const flushAll = (timeoutMs: number): Promise<void> =>
    Promise.all([
      tracerProvider && settle('traces', () => tracerProvider.forceFlush().then(() => directWriter?.forceFlush()), timeoutMs),
      meterProvider && settle('metrics', () => meterProvider.forceFlush({ timeoutMillis: timeoutMs }), timeoutMs),
      loggerProvider && settle('logs', () => loggerProvider.forceFlush({ timeoutMillis: timeoutMs }), timeoutMs),
    ]).then(() => monitor.report());

  return {
    forceFlush: flushAll,
    async shutdown(timeoutMs) {
      closer.closeAll();
      setLeanPipeline(undefined);
      setLeanMetrics(undefined);
      setLogSink(undefined);
      const progress = { answers: () => monitor.answers, stallMs: Math.min(SHUTDOWN_STALL_MS, timeoutMs) };
      await Promise.all([
        tracerProvider && settle('traces', () => tracerProvider.forceFlush().then(() => tracerProvider.shutdown()), timeoutMs, progress),
        meterProvider && settle('metrics', () => meterProvider.shutdown({ timeoutMillis: timeoutMs }), timeoutMs, progress),
        loggerProvider && settle('logs', () => loggerProvider.forceFlush({ timeoutMillis: timeoutMs }).then(() => loggerProvider.shutdown()), timeoutMs, progress),
      ]);
      monitor.reportFinal();
    },
    droppedSpans: () => monitor.droppedSpans,
    losses: () => monitor.losses(),
  };
}

/**
 * `exporter` when it is lens's console span exporter, readied to write lean spans as they end, in
 * batches of the batch processor's size and delay, each batch's outcome counted by `monitor`.
 */
function writingAsTheyEnd(exporter: SpanExporter, batch: { maxExportBatchSize: number; scheduledDelayMillis: number }, monitor: ExportMonitor): ConsoleSpanExporter | undefined {
  if (!('writeSpansAsTheyEnd' in exporter)) return undefined;
  const writer = exporter as ConsoleSpanExporter;
  writer.writeSpansAsTheyEnd({ maxLines: batch.maxExportBatchSize, delayMs: batch.scheduledDelayMillis }, (written, lost) => {
    monitor.exported('spans', written);
    if (lost > 0) monitor.exportFailed('spans', lost, new Error(`the console writer dropped ${lost} record(s)`));
  });
  return writer;
}

/** Where lean spans go when they are written as they end: counted in, then written at once. */
function writtenAsTheyEnd(writer: ConsoleSpanExporter, monitor: ExportMonitor): Pick<SpanProcessor, 'onEnd'> {
  return {
    onEnd(span) {
      monitor.accepted('spans', 1);
      writer.writeSpan(span);
    },
  };
}

/**
 * Where lean spans go: the same closer as SDK spans, then the batch processor or (the console
 * exporter) written as they end; the same resource and sampler. A parent-based sampler (the
 * default) follows the parent's sampled flag without a call.
 */
function leanPipeline(resource: Resource, sampler: Sampler, closer: OpenSpanCloser, bsp: Pick<SpanProcessor, 'onEnd'>): LeanPipeline {
  const followsParent = sampler instanceof ParentBasedSampler;
  return {
    resource,
    onStart: (span) => closer.lean.add(span),
    onEnd(span) {
      closer.lean.remove(span);
      bsp.onEnd(span);
    },
    sample(parent, traceId, name, kind, attributes) {
      if (parent !== undefined && followsParent) return (parent.traceFlags & 1) === 1;
      const parentContext = parent === undefined ? ROOT_CONTEXT : trace.setSpanContext(ROOT_CONTEXT, parent);
      return sampler.shouldSample(parentContext, traceId, name, kind, attributes, []).decision === SamplingDecision.RECORD_AND_SAMPLED;
    },
  };
}

/** Counts every sampled span reaching the batch processor (the ones it exports or loses). */
function countingSpanProcessor(inner: SpanProcessor, monitor: ExportMonitor): SpanProcessor {
  return {
    onStart: (span, parent) => inner.onStart(span, parent),
    onEnd(span) {
      // the batch processor keeps sampled spans only
      if ((span.spanContext().traceFlags & 1) === 1) monitor.accepted('spans', 1);
      inner.onEnd(span);
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
  };
}

/** Counts every log record reaching the batch processor. */
function countingLogProcessor(inner: LogRecordProcessor, monitor: ExportMonitor): LogRecordProcessor {
  return {
    onEmit(record, context) {
      monitor.accepted('log records', 1);
      inner.onEmit(record, context);
    },
    forceFlush: () => inner.forceFlush(),
    shutdown: () => inner.shutdown(),
  };
}

/** Removes every global lens may have registered before (re-initialisation in tests). */
export function disableGlobals(): void {
  setLeanPipeline(undefined);
  setLeanMetrics(undefined);
  trace.disable();
  context.disable();
  propagation.disable();
  metrics.disable();
  logs.disable();
  setLogSink(undefined);
}

function metricInterval(env: Env): number {
  const raw = readEnv(env, 'OTEL_METRIC_EXPORT_INTERVAL');
  if (raw === undefined) return DEFAULT_METRIC_INTERVAL_MS;
  const value = Number(raw);
  if (Number.isInteger(value) && value > 0) return value;
  lensWarn(LENS_WARNINGS.SETUP_DEGRADED, `OTEL_METRIC_EXPORT_INTERVAL='${raw}' is not a positive integer (ms); using ${DEFAULT_METRIC_INTERVAL_MS}.`);
  return DEFAULT_METRIC_INTERVAL_MS;
}

function degraded(what: string): void {
  lensWarn(LENS_WARNINGS.SETUP_DEGRADED, `Another global OpenTelemetry ${what} is already registered; lens could not install its own. ` + 'Set telemetry up once per process, through lens.');
}

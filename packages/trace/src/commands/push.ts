/**
 * `gym trace push --endpoint <OTLP URL>`: replays a run's spans to any OTLP collector (Jaeger,
 * Tempo, the OpenTelemetry Collector, ClickHouse's exporter) through the OpenTelemetry SDK's own
 * OTLP exporters, with the original ids and timestamps. Spans are streamed from the run's store a
 * DuckDB result chunk at a time; reading waits for the collector, so memory stays bounded whatever
 * the size of the run.
 * @module
 */
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { openStore } from '../store/open-store.js';
import { forEachStoredSpan } from '../store/store-read.js';
import { counted } from '../render/format.js';
import { resolvePaths } from './default-paths.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import type { CommandOutput } from './output.js';

/** OTLP protocols, as `OTEL_EXPORTER_OTLP_PROTOCOL` names them. */
export const PUSH_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;

/** An OTLP protocol. */
export type PushProtocol = (typeof PUSH_PROTOCOLS)[number];

/** Options of {@link push}. */
export interface PushOptions extends InputOptions {
  /** Collector URL: `http://host:4318` (HTTP; `/v1/traces` added when there is no path) or `http://host:4317` (gRPC). */
  endpoint: string;
  /** Default `http/protobuf`. */
  protocol?: PushProtocol;
  /** Request headers (gRPC metadata), e.g. an authorization token. */
  headers?: Record<string, string>;
  /** Spans per export request. Default 512. */
  batchSize?: number;
  /** Timeout per export request, ms. Default 30000. */
  timeoutMs?: number;
}

// two requests in flight: the next batch is read while the collector takes the previous one
const MAX_IN_FLIGHT = 2;

/** Runs `push`; returns the exit code (0, or 2 for bad input or a collector that refuses the spans). */
export async function push(options: PushOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    const protocol = options.protocol ?? 'http/protobuf';
    if (!PUSH_PROTOCOLS.includes(protocol)) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--protocol takes one of ${PUSH_PROTOCOLS.join(', ')}, got '${protocol}'.`);
    const batchSize = options.batchSize ?? 512;
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--batch-size takes a positive integer, got ${options.batchSize}.`);
    const url = endpointUrl(options.endpoint, protocol);
    const paths = await resolvePaths(options.paths, options.cwd, out);
    const exporter = await createExporter(protocol, url, options.headers ?? {}, options.timeoutMs ?? 30_000);
    // the SDK's modules load only for this command (importing @gym/trace stays cheap)
    const { ReadableSpanConverter } = await import('../push/readable-spans.js');
    const converter = new ReadableSpanConverter();
    const inFlight: Array<Promise<void>> = [];
    let batch: ReadableSpan[] = [];
    let sent = 0;
    let requests = 0;
    let failure: string | null = null;
    const flush = (): void => {
      if (batch.length === 0) return;
      const spans = batch;
      batch = [];
      const p = new Promise<void>((resolve) => {
        exporter.export(spans, (result) => {
          // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison -- 0 is ExportResultCode.SUCCESS; importing the enum would load @opentelemetry/core with @gym/trace
          if (result.code === 0) {
            sent += spans.length;
            requests++;
          } else failure ??= result.error?.message ?? 'export failed';
          resolve();
        });
      }).finally(() => void inFlight.splice(inFlight.indexOf(p), 1));
      inFlight.push(p);
    };
    const started = Date.now();
    try {
      const store = await openStore(paths, out);
      let spans: number;
      try {
        spans = await forEachStoredSpan(store, (s) => {
          batch.push(converter.convert(s));
          if (batch.length >= batchSize) flush();
          if (failure !== null) return Promise.reject(new PushFailed(failure));
          return inFlight.length >= MAX_IN_FLIGHT ? inFlight[0] : undefined;
        });
      } finally {
        await store.close();
      }
      flush();
      await Promise.all(inFlight);
      if (failure !== null) throw new PushFailed(failure);
      if (spans === 0) throw new TraceUserError(TRACE_ERROR_CODES.noSpans, `No spans found in ${paths.join(', ')}: nothing to push.`);
      out.write(`pushed ${counted(sent, 'span')} in ${counted(requests, 'request')} to ${url} (${protocol}) in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
    } catch (err) {
      if (err instanceof PushFailed)
        throw new TraceUserError(
          TRACE_ERROR_CODES.pushFailed,
          `The collector at ${url} did not take the spans (${err.message}); ${sent} spans were sent before. Check --endpoint and --protocol (gRPC listens on 4317, HTTP on 4318).`,
        );
      throw err;
    } finally {
      await Promise.all(inFlight);
      await exporter.shutdown().catch(() => undefined);
    }
    return 0;
  });
}

class PushFailed extends Error {}

function endpointUrl(endpoint: string, protocol: PushProtocol): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--endpoint takes a URL such as http://127.0.0.1:4318, got '${endpoint}'.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--endpoint takes an http:// or https:// URL, got '${endpoint}'.`);
  if (protocol !== 'grpc' && (url.pathname === '' || url.pathname === '/')) url.pathname = '/v1/traces';
  return protocol === 'grpc' ? url.origin : url.toString();
}

// The exporters are loaded only by this command.
async function createExporter(protocol: PushProtocol, url: string, headers: Record<string, string>, timeoutMillis: number): Promise<SpanExporter> {
  switch (protocol) {
    case 'http/protobuf': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
      return new OTLPTraceExporter({ url, headers, timeoutMillis });
    }
    case 'http/json': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
      return new OTLPTraceExporter({ url, headers, timeoutMillis });
    }
    case 'grpc': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-grpc');
      const { Metadata } = await import('@grpc/grpc-js');
      const metadata = new Metadata();
      for (const [k, v] of Object.entries(headers)) metadata.set(k, v);
      return new OTLPTraceExporter({ url, metadata, timeoutMillis });
    }
  }
}

/**
 * `gym trace push --endpoint <OTLP URL>`: replays a run's spans to any OTLP collector (Jaeger,
 * Tempo, the OpenTelemetry Collector, ClickHouse's exporter) through the OpenTelemetry SDK's own
 * OTLP exporters, with the original ids and timestamps. Spans are streamed from the run's store a
 * DuckDB result chunk at a time; reading waits for the collector, so memory stays bounded whatever
 * the size of the run.
 * @module
 */
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { ExportOutcome } from '../push/otlp-sender.js';
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
    // the SDK's modules load only for this command (importing @gym/trace stays cheap)
    const { ReadableSpanConverter } = await import('../push/readable-spans.js');
    const { createOtlpSender } = await import('../push/otlp-sender.js');
    const sender = await createOtlpSender(protocol, url, options.headers ?? {}, options.timeoutMs ?? 30_000);
    const converter = new ReadableSpanConverter();
    const inFlight: Array<Promise<void>> = [];
    let batch: ReadableSpan[] = [];
    let sent = 0;
    let requests = 0;
    const rejections = { spans: 0, requests: 0, messages: new Set<string>() };
    // the first request that failed ends the push (read from the callbacks, hence a holder)
    const halt: { outcome: ExportOutcome | null } = { outcome: null };
    const flush = (): void => {
      if (batch.length === 0) return;
      const spans = batch;
      batch = [];
      const p = sender
        .send(spans)
        .then((outcome) => {
          if (outcome.kind !== 'accepted') return void (halt.outcome ??= outcome);
          sent += spans.length;
          requests++;
          if (outcome.rejected === 0) return;
          rejections.spans += outcome.rejected;
          rejections.requests++;
          if (outcome.message !== '' && rejections.messages.size < 3) rejections.messages.add(outcome.message);
        })
        .finally(() => void inFlight.splice(inFlight.indexOf(p), 1));
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
          if (halt.outcome !== null) return Promise.reject(new PushStopped());
          return inFlight.length >= MAX_IN_FLIGHT ? inFlight[0] : undefined;
        });
      } finally {
        await store.close();
      }
      flush();
      await Promise.all(inFlight);
      if (halt.outcome !== null) throw new PushStopped();
      if (spans === 0) throw new TraceUserError(TRACE_ERROR_CODES.noSpans, `No spans found in ${paths.join(', ')}: nothing to push.`);
      out.write(`pushed ${counted(sent, 'span')} in ${counted(requests, 'request')} to ${url} (${protocol}) in ${((Date.now() - started) / 1000).toFixed(1)}s\n`);
    } catch (err) {
      const stop = halt.outcome;
      if (!(err instanceof PushStopped) || stop === null) throw err;
      if (stop.kind === 'not-otlp')
        throw new TraceUserError(
          TRACE_ERROR_CODES.pushNotOtlp,
          `${url} answered with something that is not an OTLP response (${stop.message}); the spans are not counted as pushed (${sent} were taken before). Is --endpoint an OTLP collector, not a proxy's page? (gRPC listens on 4317, HTTP on 4318.)`,
        );
      throw new TraceUserError(
        TRACE_ERROR_CODES.pushFailed,
        `The collector at ${url} did not take the spans (${stop.message}); ${sent} spans were sent before. Check --endpoint and --protocol (gRPC listens on 4317, HTTP on 4318).`,
      );
    } finally {
      await Promise.all(inFlight);
      sender.close();
    }
    if (rejections.spans > 0) {
      const why = rejections.messages.size === 0 ? '' : `: ${[...rejections.messages].join('; ')}`;
      throw new TraceUserError(
        TRACE_ERROR_CODES.pushRejected,
        `The backend behind ${url} rejected ${rejections.spans} of the ${sent} spans it took (partial success in ${rejections.requests} of ${requests} requests)${why}.`,
      );
    }
    return 0;
  });
}

/** Thrown from the span loop to end reading once a request has failed. */
class PushStopped extends Error {}

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

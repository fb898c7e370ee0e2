/**
 * One OTLP trace export request and the collector's answer, read as OTLP says it must be: a 2xx with
 * an `ExportTraceServiceResponse` in the request's encoding (a `partialSuccess` in it names the
 * spans the backend dropped), or an error status. A 200 that is not OTLP (a proxy's HTML page, a
 * wrong content type, bytes that do not decode) is refused, not counted as delivered: the SDK's
 * exporters log both cases and report success, which is why `push` sends its own requests.
 * Serialization is the SDK's (`@opentelemetry/otlp-transformer`); retries follow the OTLP spec.
 * @module
 */
import * as grpc from '@grpc/grpc-js';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { IExportTraceServiceResponse } from '@opentelemetry/otlp-transformer';
import { terminalSafe } from '../commands/output.js';

/** OTLP protocols, as `OTEL_EXPORTER_OTLP_PROTOCOL` names them. */
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

/** What the collector said about one request. */
export type ExportOutcome =
  /** Taken; `rejected` of the spans were dropped by the backend (OTLP partial success), with its message. */
  | { kind: 'accepted'; rejected: number; message: string }
  /** Not taken: unreachable, an error status, or retries exhausted. */
  | { kind: 'failed'; message: string }
  /** A 2xx answer that is not an OTLP response: the endpoint is not an OTLP collector. */
  | { kind: 'not-otlp'; message: string };

/** Sends export requests to one collector. */
export interface OtlpSender {
  send(spans: ReadableSpan[]): Promise<ExportOutcome>;
  close(): void;
}

const TRACE_EXPORT_PATH = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const MEDIA_TYPES: Record<'http/protobuf' | 'http/json', readonly string[]> = {
  'http/protobuf': ['application/x-protobuf', 'application/protobuf'],
  'http/json': ['application/json'],
};
// OTLP/HTTP: the statuses a client retries; OTLP/gRPC: the codes (RESOURCE_EXHAUSTED only with retry info, left out)
const RETRY_HTTP = new Set([429, 502, 503, 504]);
const RETRY_GRPC = new Set([grpc.status.CANCELLED, grpc.status.DEADLINE_EXCEEDED, grpc.status.ABORTED, grpc.status.OUT_OF_RANGE, grpc.status.UNAVAILABLE, grpc.status.DATA_LOSS]);
const MAX_ATTEMPTS = 5;
const EXCERPT_CHARS = 200;

/** A single try: an outcome, or a retryable failure with the delay the collector asked for. */
type Attempt = ExportOutcome | { kind: 'retry'; message: string; afterMs: number | null };

/** Creates the sender for `url` (`http://host:4318/v1/traces`, or the origin for gRPC). */
export function createOtlpSender(protocol: OtlpProtocol, url: string, headers: Record<string, string>, timeoutMs: number): OtlpSender {
  const attemptOnce = protocol === 'grpc' ? grpcAttempt(url, headers, timeoutMs) : httpAttempt(protocol, url, headers, timeoutMs);
  return {
    async send(spans) {
      for (let attempt = 1; ; attempt++) {
        const result = await attemptOnce.send(spans);
        if (result.kind !== 'retry') return result;
        if (attempt === MAX_ATTEMPTS) return { kind: 'failed', message: `${result.message}, ${MAX_ATTEMPTS} attempts` };
        // exponential backoff with jitter (1 s, 1.5 s, …), or what the collector asked for
        await new Promise((r) => setTimeout(r, result.afterMs ?? 1000 * 1.5 ** (attempt - 1) * (0.8 + Math.random() * 0.4)));
      }
    },
    close: () => attemptOnce.close(),
  };
}

function httpAttempt(
  protocol: 'http/protobuf' | 'http/json',
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): { send: (spans: ReadableSpan[]) => Promise<Attempt>; close: () => void } {
  const serializer = protocol === 'http/json' ? JsonTraceSerializer : ProtobufTraceSerializer;
  const accepted = MEDIA_TYPES[protocol];
  return {
    async send(spans) {
      let res: Response;
      let body: Uint8Array;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { ...headers, 'content-type': accepted[0]! },
          body: serializer.serializeRequest(spans) ?? new Uint8Array(),
          signal: AbortSignal.timeout(timeoutMs),
        });
        body = new Uint8Array(await res.arrayBuffer());
      } catch (err) {
        return { kind: 'failed', message: describeFetchError(err) };
      }
      const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!res.ok) {
        const message = `HTTP ${res.status}${res.statusText === '' ? '' : ` ${res.statusText}`}${mediaType.startsWith('text/') || mediaType === 'application/json' ? `: ${excerpt(body)}` : ''}`;
        return RETRY_HTTP.has(res.status) ? { kind: 'retry', message, afterMs: retryAfterMs(res.headers.get('retry-after')) } : { kind: 'failed', message };
      }
      // An empty body is the empty response in any encoding; anything else must be OTLP in the request's encoding.
      if (body.length === 0) return { kind: 'accepted', rejected: 0, message: '' };
      if (!accepted.includes(mediaType))
        return {
          kind: 'not-otlp',
          message: `HTTP ${res.status} with Content-Type '${mediaType || 'none'}' instead of ${accepted.join(' or ')}${mediaType.startsWith('text/') ? `: ${excerpt(body)}` : ''}`,
        };
      return decodeResponse(() => serializer.deserializeResponse(body), `HTTP ${res.status}`);
    },
    close: () => undefined,
  };
}

function grpcAttempt(url: string, headers: Record<string, string>, timeoutMs: number): { send: (spans: ReadableSpan[]) => Promise<Attempt>; close: () => void } {
  const client = new grpc.Client(new URL(url).host, url.startsWith('https:') ? grpc.credentials.createSsl() : grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  for (const [k, v] of Object.entries(headers)) metadata.set(k, v);
  return {
    send: (spans) =>
      new Promise((resolve) => {
        const request = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) ?? new Uint8Array());
        const identity = (b: Buffer): Buffer => b;
        client.makeUnaryRequest(TRACE_EXPORT_PATH, identity, identity, request, metadata, { deadline: Date.now() + timeoutMs }, (err, reply) => {
          if (err !== null) {
            const message = `gRPC ${grpc.status[err.code] ?? err.code}: ${err.details}`;
            resolve(RETRY_GRPC.has(err.code) ? { kind: 'retry', message, afterMs: null } : { kind: 'failed', message });
          } else resolve(decodeResponse(() => ProtobufTraceSerializer.deserializeResponse(reply ?? Buffer.alloc(0)), 'gRPC OK'));
        });
      }),
    close: () => client.close(),
  };
}

/** Reads `partialSuccess` of a decoded response; a body that does not decode is not OTLP. */
function decodeResponse(decode: () => IExportTraceServiceResponse, what: string): ExportOutcome {
  let response: IExportTraceServiceResponse;
  try {
    response = decode();
  } catch (err) {
    return { kind: 'not-otlp', message: `${what} with a body that is not an ExportTraceServiceResponse (${(err as Error).message})` };
  }
  if (response === null || typeof response !== 'object') return { kind: 'not-otlp', message: `${what} with a body that is not an ExportTraceServiceResponse` };
  const partial = response.partialSuccess;
  // int64 arrives as a number, a decimal string (JSON) or a Long (protobuf)
  const rejected = Number(String(partial?.rejectedSpans ?? 0));
  if (!Number.isSafeInteger(rejected) || rejected < 0) return { kind: 'not-otlp', message: `${what} with partialSuccess.rejectedSpans '${String(partial?.rejectedSpans)}', not a count` };
  return { kind: 'accepted', rejected, message: typeof partial?.errorMessage === 'string' ? terminalSafe(partial.errorMessage) : '' };
}

function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds, 60) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.min(Math.max(at - Date.now(), 0), 60_000);
}

function describeFetchError(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError') return 'no answer within the timeout';
  return e.cause?.code ?? e.cause?.message ?? e.message;
}

/** The start of a body, on one line, for an error message. */
function excerpt(body: Uint8Array): string {
  const text = Buffer.from(body.subarray(0, EXCERPT_CHARS * 4))
    .toString('utf8')
    .replace(/\s+/g, ' ')
    .trim();
  return terminalSafe(text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text);
}

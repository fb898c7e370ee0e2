/**
 * One OTLP trace export request and the collector's answer, read as OTLP says it must be: a 2xx with
 * an `ExportTraceServiceResponse` in the request's encoding (a `partialSuccess` in it names the
 * spans the backend dropped), or an error status. A 200 that is not OTLP (a proxy's HTML page, a
 * wrong content type, bytes that do not decode) is refused, not counted as delivered: the SDK's
 * exporters log both cases and report success, which is why `push` sends its own requests.
 * Serialization is the SDK's (`@opentelemetry/otlp-transformer`); retries follow the OTLP spec.
 * @module
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { IExportTraceServiceResponse } from '@opentelemetry/otlp-transformer';
import { terminalSafe } from '../commands/output.js';
import type { PushProtocol } from '../commands/push.js';

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
const RETRY_GRPC_NAMES = ['CANCELLED', 'DEADLINE_EXCEEDED', 'ABORTED', 'OUT_OF_RANGE', 'UNAVAILABLE', 'DATA_LOSS'] as const;
const MAX_ATTEMPTS = 5;
const EXCERPT_CHARS = 200;

/** A single try: an outcome, or a retryable failure with the delay the collector asked for. */
type Attempt = ExportOutcome | { kind: 'retry'; message: string; afterMs: number | null };

/** Creates the sender for `url` (`http://host:4318/v1/traces`, or the origin for gRPC). */
export async function createOtlpSender(protocol: PushProtocol, url: string, headers: Record<string, string>, timeoutMs: number): Promise<OtlpSender> {
  // grpc-js is loaded only for gRPC: it is a tenth of a second of CPU an HTTP push does not need
  const attemptOnce = protocol === 'grpc' ? grpcAttempt(await import('@grpc/grpc-js'), url, headers, timeoutMs) : httpAttempt(protocol, url, headers, timeoutMs);
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
  // node:http with keep-alive, as the SDK's exporters: fetch costs a fifth more CPU per push
  const agent = url.startsWith('https:') ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  return {
    async send(spans) {
      let res: RawResponse;
      try {
        res = await post(url, agent, { ...headers, 'content-type': accepted[0]! }, serializer.serializeRequest(spans) ?? new Uint8Array(), timeoutMs);
      } catch (err) {
        return { kind: 'failed', message: (err as NodeJS.ErrnoException).code ?? (err as Error).message };
      }
      const mediaType = (res.contentType ?? '').split(';')[0]!.trim().toLowerCase();
      if (res.status < 200 || res.status > 299) {
        const message = `HTTP ${res.status}${res.statusText === '' ? '' : ` ${res.statusText}`}${mediaType.startsWith('text/') || mediaType === 'application/json' ? `: ${excerpt(res.body)}` : ''}`;
        return RETRY_HTTP.has(res.status) ? { kind: 'retry', message, afterMs: retryAfterMs(res.retryAfter) } : { kind: 'failed', message };
      }
      // An empty body is the empty response in any encoding; anything else must be OTLP in the request's encoding.
      if (res.body.length === 0) return { kind: 'accepted', rejected: 0, message: '' };
      if (!accepted.includes(mediaType))
        return {
          kind: 'not-otlp',
          message: `HTTP ${res.status} with Content-Type '${mediaType || 'none'}' instead of ${accepted.join(' or ')}${mediaType.startsWith('text/') ? `: ${excerpt(res.body)}` : ''}`,
        };
      return decodeResponse(() => serializer.deserializeResponse(res.body), `HTTP ${res.status}`);
    },
    close: () => agent.destroy(),
  };
}

interface RawResponse {
  status: number;
  statusText: string;
  contentType: string | undefined;
  retryAfter: string | null;
  body: Buffer;
}

/** One POST; rejects on a network error or when no complete answer came within `timeoutMs`. */
function post(url: string, agent: http.Agent, headers: Record<string, string>, body: Uint8Array, timeoutMs: number): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = (url.startsWith('https:') ? https.request : http.request)(url, { method: 'POST', agent, headers: { ...headers, 'content-length': body.length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', contentType: res.headers['content-type'], retryAfter: retryAfter ?? null, body: Buffer.concat(chunks) });
      });
    });
    const timer = setTimeout(() => request.destroy(new Error('no answer within the timeout')), timeoutMs);
    request.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    request.end(body);
  });
}

function grpcAttempt(grpc: typeof import('@grpc/grpc-js'), url: string, headers: Record<string, string>, timeoutMs: number): { send: (spans: ReadableSpan[]) => Promise<Attempt>; close: () => void } {
  const client = new grpc.Client(new URL(url).host, url.startsWith('https:') ? grpc.credentials.createSsl() : grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  const retryable = new Set<number>(RETRY_GRPC_NAMES.map((name) => grpc.status[name]));
  for (const [k, v] of Object.entries(headers)) metadata.set(k, v);
  return {
    send: (spans) =>
      new Promise((resolve) => {
        const request = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) ?? new Uint8Array());
        const identity = (b: Buffer): Buffer => b;
        client.makeUnaryRequest(TRACE_EXPORT_PATH, identity, identity, request, metadata, { deadline: Date.now() + timeoutMs }, (err, reply) => {
          if (err !== null) {
            const message = `gRPC ${grpc.status[err.code] ?? err.code}: ${err.details}`;
            resolve(retryable.has(err.code) ? { kind: 'retry', message, afterMs: null } : { kind: 'failed', message });
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

/** The start of a body, on one line, for an error message. */
function excerpt(body: Uint8Array): string {
  const text = Buffer.from(body.subarray(0, EXCERPT_CHARS * 4))
    .toString('utf8')
    .replace(/\s+/g, ' ')
    .trim();
  return terminalSafe(text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text);
}

/**
 * The OTLP/HTTP receiver (node:http): `POST /v1/traces`, `/v1/metrics`, `/v1/logs` with
 * `application/x-protobuf` or `application/json` bodies, answered with the empty
 * `Export*ServiceResponse` in the request's encoding. Errors per the OTLP/HTTP spec: 400 with a
 * `google.rpc.Status` body for undecodable requests, 415 for other content types, 413 when too large.
 * @module
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { BodyError, readBody } from './http-body.js';
import { convertObjectExport } from './ingest.js';
import type { Ingest } from './ingest.js';
import { loadOtlpTypes, OTLP_SIGNALS } from './otlp-protos.js';
import type { OtlpSignal } from './otlp-protos.js';
import type { ConvertedExport, Obj } from './otlp-shape.js';
import { convertProtobufExport } from './protobuf-export.js';

type Encoding = 'protobuf' | 'json';

const CONTENT_TYPES: Record<string, Encoding> = { 'application/x-protobuf': 'protobuf', 'application/protobuf': 'protobuf', 'application/json': 'json' };
const RESOURCE_KEYS: Record<OtlpSignal, string> = { traces: 'resourceSpans', metrics: 'resourceMetrics', logs: 'resourceLogs' };
const GRPC_INVALID_ARGUMENT = 3;
const GRPC_UNAVAILABLE = 14;

/** Creates (does not start) the HTTP receiver. */
export function createOtlpHttpServer(ingest: Ingest, maxBodyBytes: number): Server {
  const types = loadOtlpTypes();
  const send = (res: ServerResponse, status: number, encoding: Encoding, body: Obj, signal: OtlpSignal | null): void => {
    const payload = encoding === 'json' ? Buffer.from(JSON.stringify(body)) : Buffer.from((signal === null || status !== 200 ? types.status : types.response(signal)).encode(body).finish());
    res.writeHead(status, { 'content-type': encoding === 'json' ? 'application/json' : 'application/x-protobuf', 'content-length': payload.length });
    res.end(payload);
  };
  const fail = (res: ServerResponse, status: number, encoding: Encoding, message: string): void =>
    send(res, status, encoding, { code: status === 503 ? GRPC_UNAVAILABLE : GRPC_INVALID_ARGUMENT, message }, null);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '').split('?')[0]!;
    const signal = OTLP_SIGNALS.find((s) => path === `/v1/${s}`);
    if (signal === undefined) return fail(res, 404, 'json', `No OTLP endpoint at ${path}; use /v1/traces, /v1/metrics or /v1/logs.`);
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return fail(res, 405, 'json', `${req.method} is not allowed; OTLP exports are POST requests.`);
    }
    const mime = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const encoding = CONTENT_TYPES[mime];
    if (encoding === undefined) return fail(res, 415, 'json', `Unsupported Content-Type '${mime}'; send application/x-protobuf or application/json.`);
    let converted: ConvertedExport;
    try {
      converted = decode(signal, encoding, await readBody(req, maxBodyBytes));
    } catch (err) {
      return fail(res, err instanceof BodyError ? err.status : 400, encoding, `Cannot decode the ${signal} export request: ${(err as Error).message}`);
    }
    try {
      await ingest(signal, converted, encoding === 'json' ? 'http/json' : 'http/protobuf');
    } catch (err) {
      // The files cannot be written (disk full, shutting down): retryable per the OTLP spec.
      return fail(res, 503, encoding, `Cannot store the export: ${(err as Error).message}`);
    }
    send(res, 200, encoding, {}, signal);
  };

  const decode = (signal: OtlpSignal, encoding: Encoding, body: Buffer): ConvertedExport => {
    if (encoding === 'protobuf') return convertProtobufExport(signal, body);
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('the body is not a JSON object');
    const list = (parsed as Obj)[RESOURCE_KEYS[signal]];
    if (list !== undefined && !Array.isArray(list)) throw new Error(`${RESOURCE_KEYS[signal]} is not an array`);
    return convertObjectExport(signal, parsed as Obj);
  };

  return createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) fail(res, 500, 'json', (err as Error).message);
      else res.destroy();
    });
  });
}

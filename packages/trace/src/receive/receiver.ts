/**
 * `startOtlpReceiver`: the embedded OTLP backend. gRPC and HTTP (protobuf and JSON) in, one
 * console-format JSON-lines file per service out, readable by every `gym trace` command.
 * @module
 */
import type { Server } from 'node:http';
import type { Server as GrpcServer } from '@grpc/grpc-js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { createIngest } from './ingest.js';
import type { ExportEvent, ReceiverCounts } from './ingest.js';
import { ServiceFiles } from './service-files.js';

/** Options of {@link startOtlpReceiver}. */
export interface OtlpReceiverOptions {
  /** Directory for `<service.name>.jsonl` files; created if missing. Files are appended to. */
  outDir: string;
  /** Interface to bind. Default `127.0.0.1` (bind locally unless configured). */
  host?: string;
  /** gRPC port; default 4317; 0 picks a free port; null turns gRPC off. */
  grpcPort?: number | null;
  /** HTTP port; default 4318; 0 picks a free port; null turns HTTP off. */
  httpPort?: number | null;
  /** Largest request body (HTTP, also after gzip inflation) or gRPC message, bytes. Default 16 MiB. */
  maxBodyBytes?: number;
  /** Called after every accepted export (for progress output). */
  onExport?: (event: ExportEvent) => void;
  /** How long `close()` lets in-flight exports finish before cutting their connections. Default 5000 ms. */
  closeGraceMs?: number;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** Bound gRPC port, or null when off. */
  readonly grpcPort: number | null;
  /** Bound HTTP port, or null when off. */
  readonly httpPort: number | null;
  /** Items received so far. */
  counts(): Readonly<ReceiverCounts>;
  /**
   * Stops accepting, lets in-flight exports finish for the grace period, then cuts every connection
   * still open (a half-sent call, a client that never reads), flushes and closes the files. Idempotent.
   */
  close(): Promise<void>;
  /** Cuts every open connection now, ending the grace period of a `close()` under way (a second Ctrl-C). */
  cutConnections(): void;
}

/** Default grace period of {@link OtlpReceiver.close}: 5 s. */
export const DEFAULT_CLOSE_GRACE_MS = 5000;

/** Default largest body or message: 16 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Starts the receiver.
 * @throws TraceUserError `GYM_TRACE_BAD_OPTION` when a port is invalid or cannot be bound.
 * @example
 * const rx = await startOtlpReceiver({ outDir: '.gym/otlp', grpcPort: 0, httpPort: 0 });
 * // OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:${rx.httpPort} …
 * await rx.close();
 */
export async function startOtlpReceiver(options: OtlpReceiverOptions): Promise<OtlpReceiver> {
  const host = options.host ?? '127.0.0.1';
  const grpcPort = options.grpcPort === undefined ? 4317 : options.grpcPort;
  const httpPort = options.httpPort === undefined ? 4318 : options.httpPort;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  for (const [flag, p] of [
    ['--grpc-port', grpcPort],
    ['--http-port', httpPort],
  ] as const) {
    if (p !== null && (!Number.isInteger(p) || p < 0 || p > 65535)) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `${flag} takes a port number 0–65535, got ${p}.`);
  }
  if (grpcPort === null && httpPort === null) throw new TraceUserError(TRACE_ERROR_CODES.badOption, 'Both gRPC and HTTP are off; enable at least one.');
  const files = new ServiceFiles(options.outDir);
  const counts: ReceiverCounts = { requests: 0, spans: 0, metrics: 0, logs: 0, rejectedSpans: 0 };
  const ingest = createIngest(files, counts, options.onExport);
  let http: Server | null = null;
  let grpc: GrpcServer | null = null;
  // Calls in flight get the grace period; whatever a client holds open after it is cut, so that
  // stopping never waits on a client (gRPC's graceful shutdown alone waits for every open stream).
  const cutConnections = (): void => {
    http?.closeAllConnections();
    grpc?.forceShutdown();
  };
  const stop = async (): Promise<void> => {
    const force = setTimeout(cutConnections, options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS);
    await Promise.all([
      http === null
        ? undefined
        : new Promise<void>((resolve) => {
            http!.close(() => resolve());
            http!.closeIdleConnections();
          }),
      grpc === null ? undefined : new Promise<void>((resolve) => grpc!.tryShutdown(() => resolve())),
    ]);
    clearTimeout(force);
    await files.close();
  };
  let boundHttp: number | null = null;
  let boundGrpc: number | null = null;
  try {
    // Loaded here, not at the top: importing `@gym/trace` must not pull in protobufjs and grpc-js.
    if (httpPort !== null) {
      const { createOtlpHttpServer } = await import('./http-server.js');
      const server = createOtlpHttpServer(ingest, maxBodyBytes);
      http = server;
      boundHttp = await new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(httpPort, host, () => resolve((server.address() as { port: number }).port));
      });
    }
    if (grpcPort !== null) {
      const { bindGrpc, createOtlpGrpcServer } = await import('./grpc-server.js');
      grpc = createOtlpGrpcServer(ingest, maxBodyBytes);
      boundGrpc = await bindGrpc(grpc, host, grpcPort);
    }
  } catch (err) {
    if (http !== null && !http.listening) http = null;
    await stop();
    throw new TraceUserError(TRACE_ERROR_CODES.badOption, `Cannot listen on ${host}: ${(err as Error).message}. Pick other ports (--grpc-port, --http-port; 0 = any free port).`, { cause: err });
  }
  let closing: Promise<void> | null = null;
  return {
    grpcPort: boundGrpc,
    httpPort: boundHttp,
    counts: () => ({ ...counts }),
    close: () => (closing ??= stop()),
    cutConnections,
  };
}

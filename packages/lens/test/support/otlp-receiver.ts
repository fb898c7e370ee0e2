/**
 * A real OTLP receiver for tests: HTTP (protobuf and JSON) on node:http and gRPC on @grpc/grpc-js,
 * both on 127.0.0.1 port 0, serving traces, metrics and logs. Decoding uses protobufjs and
 * proto-loader against the official opentelemetry-proto files, independently of the exporters.
 * @module
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { logsOf, metricsOf, spansOf } from './otlp-decode.js';
import type { ReceivedLog, ReceivedMetric, ReceivedSpan } from './otlp-decode.js';

export type { ReceivedLog, ReceivedMetric, ReceivedSpan } from './otlp-decode.js';

const PROTO_ROOT = join(dirname(createRequire(import.meta.url).resolve('otlp-protos/package.json')), 'build', 'protos');
const SERVICES = {
  traces: { file: 'opentelemetry/proto/collector/trace/v1/trace_service.proto', pkg: 'trace', service: 'TraceService', request: 'ExportTraceServiceRequest' },
  metrics: { file: 'opentelemetry/proto/collector/metrics/v1/metrics_service.proto', pkg: 'metrics', service: 'MetricsService', request: 'ExportMetricsServiceRequest' },
  logs: { file: 'opentelemetry/proto/collector/logs/v1/logs_service.proto', pkg: 'logs', service: 'LogsService', request: 'ExportLogsServiceRequest' },
} as const;
type SignalName = keyof typeof SERVICES;

/** A running receiver. */
export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>` of the HTTP receiver (exporters append `/v1/<signal>`). */
  readonly httpEndpoint: string;
  /** `http://127.0.0.1:<port>` of the gRPC receiver (plaintext). */
  readonly grpcEndpoint: string;
  readonly spans: ReceivedSpan[];
  readonly metrics: ReceivedMetric[];
  readonly logs: ReceivedLog[];
  /** Content types seen by the HTTP receiver, per request. */
  readonly contentTypes: string[];
  /** Forgets everything received. */
  clear(): void;
  close(): Promise<void>;
}

/** Starts the receiver. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_ROOT, target);
  root.loadSync(Object.values(SERVICES).map((s) => s.file));
  const spans: ReceivedSpan[] = [];
  const metrics: ReceivedMetric[] = [];
  const logs: ReceivedLog[] = [];
  const contentTypes: string[] = [];
  const accept = (signal: SignalName, req: Record<string, unknown>, transport: string): void => {
    if (signal === 'traces') spans.push(...spansOf(req, transport));
    else if (signal === 'metrics') metrics.push(...metricsOf(req, transport));
    else logs.push(...logsOf(req, transport));
  };

  const http = createServer((req, res) => {
    const signal = req.url?.replace(/^\/v1\//, '') as SignalName;
    const service = SERVICES[signal];
    if (req.method !== 'POST' || service === undefined) {
      res.writeHead(404).end();
      return;
    }
    readBody(req).then(
      (body) => {
        const type = String(req.headers['content-type'] ?? '');
        contentTypes.push(type);
        if (type.includes('json')) {
          accept(signal, JSON.parse(body.toString('utf8')), 'http/json');
          res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        } else {
          const Type = root.lookupType(`opentelemetry.proto.collector.${service.pkg}.v1.${service.request}`);
          const decoded = Type.toObject(Type.decode(body), { longs: String, defaults: false });
          accept(signal, decoded, 'http/protobuf');
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
        }
      },
      () => res.writeHead(400).end(),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const httpPort = (http.address() as { port: number }).port;

  const definition = protoLoader.loadSync(
    Object.values(SERVICES).map((s) => s.file),
    { includeDirs: [PROTO_ROOT], longs: String, enums: Number, defaults: false, oneofs: false },
  );
  const loaded = grpc.loadPackageDefinition(definition) as any;
  const server = new grpc.Server();
  for (const [signal, service] of Object.entries(SERVICES) as Array<[SignalName, (typeof SERVICES)[SignalName]]>) {
    const svc = loaded.opentelemetry.proto.collector[service.pkg].v1[service.service];
    server.addService(svc.service, {
      Export(call: { request: Record<string, unknown> }, done: (err: null, res: object) => void) {
        accept(signal, call.request, 'grpc');
        done(null, {});
      },
    });
  }
  const grpcPort = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))));

  return {
    httpEndpoint: `http://127.0.0.1:${httpPort}`,
    grpcEndpoint: `http://127.0.0.1:${grpcPort}`,
    spans,
    metrics,
    logs,
    contentTypes,
    clear() {
      spans.length = 0;
      metrics.length = 0;
      logs.length = 0;
      contentTypes.length = 0;
    },
    async close() {
      await closeHttp(http);
      await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', reject);
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        resolve(req.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body);
      } catch (error) {
        reject(error);
      }
    });
  });
}

function closeHttp(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

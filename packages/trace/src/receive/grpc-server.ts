/**
 * The OTLP/gRPC receiver (@grpc/grpc-js): the `Export` method of the trace, metrics and logs
 * collector services, plaintext. grpc-js inflates gzip-compressed messages itself.
 * @module
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { Ingest } from './ingest.js';
import { OTLP_SERVICES, OTLP_SIGNALS, otlpProtoDir, TO_OBJECT_OPTIONS } from './otlp-protos.js';
import type { Obj } from './otlp-shape.js';

interface ServiceCtor {
  service: grpc.ServiceDefinition;
}

/** Creates (does not bind) the gRPC server with the three collector services. */
export function createOtlpGrpcServer(ingest: Ingest, maxMessageBytes: number): grpc.Server {
  const definition = protoLoader.loadSync(
    OTLP_SIGNALS.map((s) => OTLP_SERVICES[s].file),
    { ...TO_OBJECT_OPTIONS, includeDirs: [otlpProtoDir()] },
  );
  const loaded = grpc.loadPackageDefinition(definition) as unknown as { opentelemetry: { proto: { collector: Record<string, { v1: Record<string, ServiceCtor> }> } } };
  const server = new grpc.Server({ 'grpc.max_receive_message_length': maxMessageBytes });
  for (const signal of OTLP_SIGNALS) {
    const { pkg, service } = OTLP_SERVICES[signal];
    const ctor = loaded.opentelemetry.proto.collector[pkg]!.v1[service]!;
    server.addService(ctor.service, {
      Export(call: grpc.ServerUnaryCall<Obj, Obj>, done: grpc.sendUnaryData<Obj>) {
        ingest(signal, call.request, 'grpc').then(
          () => done(null, {}),
          // Storage failed (disk full, shutting down): UNAVAILABLE is the retryable code in OTLP.
          (err: unknown) => done({ code: grpc.status.UNAVAILABLE, details: `Cannot store the export: ${(err as Error).message}` }),
        );
      },
    });
  }
  return server;
}

/** Binds `server` to `host:port` (port 0 = any free port) and resolves with the bound port. */
export function bindGrpc(server: grpc.Server, host: string, port: number): Promise<number> {
  const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return new Promise((resolve, reject) => server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, bound) => (err === null ? resolve(bound) : reject(err))));
}

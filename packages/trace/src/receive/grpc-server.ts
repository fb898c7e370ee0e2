/**
 * The OTLP/gRPC receiver (@grpc/grpc-js): the `Export` method of the trace, metrics and logs
 * collector services, plaintext. grpc-js inflates gzip-compressed messages itself; each request
 * reaches the handler as its protobuf bytes, converted there (`protobuf-export.ts`), so a span
 * is never built as a protobufjs message.
 * @module
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { Ingest } from './ingest.js';
import { OTLP_SERVICES, OTLP_SIGNALS, otlpProtoDir, TO_OBJECT_OPTIONS } from './otlp-protos.js';
import type { ConvertedExport, Obj } from './otlp-shape.js';
import { convertProtobufExport } from './protobuf-export.js';

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
    const exportMethod = ctor.service['Export']!;
    // the request's bytes as they came: decoded by the handler, which can say what is wrong with them
    const definition: grpc.ServiceDefinition = { ...ctor.service, Export: { ...exportMethod, requestDeserialize: (bytes: Buffer) => bytes } };
    server.addService(definition, {
      Export(call: grpc.ServerUnaryCall<Buffer, Obj>, done: grpc.sendUnaryData<Obj>) {
        let converted: ConvertedExport;
        try {
          converted = convertProtobufExport(signal, call.request);
        } catch (err) {
          done({ code: grpc.status.INVALID_ARGUMENT, details: `Cannot decode the ${signal} export request: ${(err as Error).message}` });
          return;
        }
        ingest(signal, converted, 'grpc').then(
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

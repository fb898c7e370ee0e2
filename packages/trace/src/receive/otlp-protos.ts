/**
 * The official OpenTelemetry protocol definitions (`opentelemetry-proto`), loaded once, for the
 * HTTP/protobuf decoder (protobufjs) and the gRPC service (proto-loader).
 * @module
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import protobuf from 'protobufjs';

/** The three OTLP signals, by the path segment of their HTTP endpoint (`/v1/<signal>`). */
export type OtlpSignal = 'traces' | 'metrics' | 'logs';

/** Per signal: proto file, collector package, gRPC service and message names. */
export const OTLP_SERVICES = {
  traces: { file: 'opentelemetry/proto/collector/trace/v1/trace_service.proto', pkg: 'trace', service: 'TraceService', request: 'ExportTraceServiceRequest', response: 'ExportTraceServiceResponse' },
  metrics: {
    file: 'opentelemetry/proto/collector/metrics/v1/metrics_service.proto',
    pkg: 'metrics',
    service: 'MetricsService',
    request: 'ExportMetricsServiceRequest',
    response: 'ExportMetricsServiceResponse',
  },
  logs: { file: 'opentelemetry/proto/collector/logs/v1/logs_service.proto', pkg: 'logs', service: 'LogsService', request: 'ExportLogsServiceRequest', response: 'ExportLogsServiceResponse' },
} as const;

/** Every signal, in a fixed order. */
export const OTLP_SIGNALS: readonly OtlpSignal[] = ['traces', 'metrics', 'logs'];

/**
 * Conversion of decoded messages to plain objects, shared by both decoders so that protobuf, gRPC
 * and OTLP/JSON arrive in one shape: camelCase keys, 64-bit ints as decimal strings, enums as ints,
 * bytes as base64 (ids are then normalised by `normalizeId`, which reads hex and base64).
 */
export const TO_OBJECT_OPTIONS = { longs: String, enums: Number, bytes: String, defaults: false, oneofs: false } as const;

/** Directory holding `opentelemetry/proto/...` (from the `otlp-protos` package). */
export function otlpProtoDir(): string {
  return join(dirname(createRequire(import.meta.url).resolve('otlp-protos/package.json')), 'build', 'protos');
}

/** Message types of the OTLP collector services, plus `google.rpc.Status` for error bodies. */
export interface OtlpTypes {
  request(signal: OtlpSignal): protobuf.Type;
  response(signal: OtlpSignal): protobuf.Type;
  /** `google.rpc.Status` (code, message), the OTLP/HTTP error body. */
  status: protobuf.Type;
}

let cached: OtlpTypes | null = null;

/** Loads (once per process) the collector service protos. Throws only if the package is missing. */
export function loadOtlpTypes(): OtlpTypes {
  if (cached !== null) return cached;
  const dir = otlpProtoDir();
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(dir, target);
  root.loadSync(OTLP_SIGNALS.map((s) => OTLP_SERVICES[s].file));
  // google/rpc/status.proto is not shipped with the OTLP protos; its two scalar fields are all we send.
  const status = new protobuf.Type('Status').add(new protobuf.Field('code', 1, 'int32')).add(new protobuf.Field('message', 2, 'string'));
  new protobuf.Root().define('google.rpc').add(status);
  const name = (s: OtlpSignal, m: 'request' | 'response') => `opentelemetry.proto.collector.${OTLP_SERVICES[s].pkg}.v1.${OTLP_SERVICES[s][m]}`;
  cached = {
    request: (s) => root.lookupType(name(s, 'request')),
    response: (s) => root.lookupType(name(s, 'response')),
    status,
  };
  return cached;
}

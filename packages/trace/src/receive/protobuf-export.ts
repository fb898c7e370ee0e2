/**
 * An export request in OTLP/protobuf (gRPC, or OTLP/HTTP with `application/x-protobuf`) as console
 * records: spans, nearly all of the traffic, read from the wire bytes (`trace-wire.ts`); metrics
 * and logs decoded by protobufjs into plain objects.
 * @module
 */
import { convertObjectExport } from './ingest.js';
import { loadOtlpTypes, TO_OBJECT_OPTIONS } from './otlp-protos.js';
import type { OtlpSignal } from './otlp-protos.js';
import type { ConvertedExport } from './otlp-shape.js';
import { spanRecordsOfWire } from './trace-wire.js';

/**
 * Converts the protobuf-encoded export request of `signal` in `bytes`.
 * @throws Error when the bytes are not a well-formed request (a `WireError` for spans).
 */
export function convertProtobufExport(signal: OtlpSignal, bytes: Buffer): ConvertedExport {
  if (signal === 'traces') return spanRecordsOfWire(bytes);
  const Type = loadOtlpTypes().request(signal);
  return convertObjectExport(signal, Type.toObject(Type.decode(bytes), TO_OBJECT_OPTIONS));
}

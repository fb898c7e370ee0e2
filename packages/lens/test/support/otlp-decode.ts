/**
 * Normalising decoded OTLP requests (protobuf messages, OTLP/JSON, gRPC objects) into flat records
 * for assertions. Ids arrive as bytes (protobuf, gRPC) or hex strings (the JS OTLP/JSON exporter).
 * @module
 */

/** One received span. */
export interface ReceivedSpan {
  transport: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

/** One received metric (data points left raw). */
export interface ReceivedMetric {
  transport: string;
  name: string;
  resource: Record<string, unknown>;
  raw: Record<string, unknown>;
}

/** One received log record. */
export interface ReceivedLog {
  transport: string;
  body: unknown;
  traceId: string;
  spanId: string;
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

type Obj = Record<string, any>;

/** Bytes or a hex string → lower-case hex ('' when absent). */
export function toHex(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return /^[0-9a-fA-F]*$/.test(value) ? value.toLowerCase() : Buffer.from(value, 'base64').toString('hex');
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return '';
}

/** An OTLP AnyValue → a plain JS value. */
export function anyValue(v: Obj | undefined): unknown {
  if (!v) return undefined;
  if (v['stringValue'] !== undefined) return v['stringValue'];
  if (v['boolValue'] !== undefined) return v['boolValue'];
  if (v['intValue'] !== undefined) return Number(v['intValue']);
  if (v['doubleValue'] !== undefined) return Number(v['doubleValue']);
  if (v['arrayValue'] !== undefined) return ((v['arrayValue'] as Obj)['values'] ?? []).map((x: Obj) => anyValue(x));
  if (v['kvlistValue'] !== undefined) return keyValues((v['kvlistValue'] as Obj)['values']);
  if (v['bytesValue'] !== undefined) return toHex(v['bytesValue']);
  return undefined;
}

/** A KeyValue list → a plain object. */
export function keyValues(list: Obj[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) out[kv['key'] as string] = anyValue(kv['value'] as Obj);
  return out;
}

/** Flattens an ExportTraceServiceRequest. */
export function spansOf(req: Obj, transport: string): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of req['resourceSpans'] ?? []) {
    const resource = keyValues(rs['resource']?.['attributes']);
    for (const ss of rs['scopeSpans'] ?? rs['instrumentationLibrarySpans'] ?? []) {
      for (const s of ss['spans'] ?? []) {
        out.push({
          transport,
          traceId: toHex(s['traceId']),
          spanId: toHex(s['spanId']),
          parentSpanId: toHex(s['parentSpanId']),
          name: s['name'],
          attributes: keyValues(s['attributes']),
          resource,
        });
      }
    }
  }
  return out;
}

/** Flattens an ExportMetricsServiceRequest. */
export function metricsOf(req: Obj, transport: string): ReceivedMetric[] {
  const out: ReceivedMetric[] = [];
  for (const rm of req['resourceMetrics'] ?? []) {
    const resource = keyValues(rm['resource']?.['attributes']);
    for (const sm of rm['scopeMetrics'] ?? rm['instrumentationLibraryMetrics'] ?? []) {
      for (const m of sm['metrics'] ?? []) out.push({ transport, name: m['name'], resource, raw: m });
    }
  }
  return out;
}

/** Flattens an ExportLogsServiceRequest. */
export function logsOf(req: Obj, transport: string): ReceivedLog[] {
  const out: ReceivedLog[] = [];
  for (const rl of req['resourceLogs'] ?? []) {
    const resource = keyValues(rl['resource']?.['attributes']);
    for (const sl of rl['scopeLogs'] ?? rl['instrumentationLibraryLogs'] ?? []) {
      for (const l of sl['logRecords'] ?? []) {
        out.push({
          transport,
          body: anyValue(l['body']),
          traceId: toHex(l['traceId']),
          spanId: toHex(l['spanId']),
          attributes: keyValues(l['attributes']),
          resource,
        });
      }
    }
  }
  return out;
}

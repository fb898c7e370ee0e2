// The floor's console record: the lean JSON lines gym's console exporter writes (docs/lens-setup.md,
// "console"), built with template strings by hand — what any tracer writing the same record must at
// least pay. A resource record opens each file; every span line ends with its process's identity.

/** What identifies the writing process on each of its lines. */
export interface FloorIdentity {
  serviceName: string;
  /** `service.instance.id` of the resource, when it has one; the pid identifies the process otherwise. */
  instanceId?: string;
  pid: number;
}

/** One ended span, its attributes already a JSON object's text. */
export interface FloorSpan {
  traceId: string;
  spanId: string;
  /** Undefined for a root span. */
  parentSpanId: string | undefined;
  name: string;
  kind: 'INTERNAL' | 'SERVER' | 'CLIENT';
  /** Start and end, epoch milliseconds with a fraction (performance.timeOrigin + performance.now()). */
  startMs: number;
  endMs: number;
  /** The status message of a span that failed; undefined for one that did not. */
  error: string | undefined;
  attributes: string;
}

/** The instrumentation scope of the process's spans, as gym states it (`nemo.gym`). */
const SCOPE = '{"name":"nemo.gym","version":"0.1.0"}';

/** The resource record written first on each stream. */
export function floorResourceRecord(identity: FloorIdentity, attributes: Readonly<Record<string, string | number>>): string {
  const instance = identity.instanceId === undefined ? '' : `"service.instance.id":${JSON.stringify(identity.instanceId)},`;
  return `{"type":"resource","service.name":${JSON.stringify(identity.serviceName)},${instance}"process.pid":${identity.pid},"attributes":${JSON.stringify(attributes)}}`;
}

/** The scope and identity fields that close every span line of a process, computed once. */
export function floorIdentityTail(identity: FloorIdentity): string {
  const who = identity.instanceId === undefined ? `"process.pid":${identity.pid}` : `"service.instance.id":${JSON.stringify(identity.instanceId)}`;
  return `"scope":${SCOPE},"service.name":${JSON.stringify(identity.serviceName)},${who}}`;
}

/** Exact epoch nanoseconds as a decimal string (a double holds them only to about 256 ns). */
export function epochNanosText(epochMs: number): string {
  const whole = Math.floor(epochMs);
  const nanos = Math.round((epochMs - whole) * 1e6);
  return nanos >= 1e6 ? `${whole + 1}000000` : `${whole}${String(nanos).padStart(6, '0')}`;
}

const OK_STATUS = '{"code":"UNSET","message":null}';

/** The span's line, without the newline. `tail` is {@link floorIdentityTail} of the process. */
export function floorSpanLine(span: FloorSpan, tail: string): string {
  const parent = span.parentSpanId === undefined ? 'null' : `"${span.parentSpanId}"`;
  const status = span.error === undefined ? OK_STATUS : `{"code":"ERROR","message":${JSON.stringify(span.error)}}`;
  const durationMs = Math.round((span.endMs - span.startMs) * 1000) / 1000;
  return `{"type":"span","trace_id":"${span.traceId}","span_id":"${span.spanId}","parent_span_id":${parent},"name":${JSON.stringify(span.name)},"kind":"${span.kind}","start_time_unix_nano":"${epochNanosText(span.startMs)}","end_time_unix_nano":"${epochNanosText(span.endMs)}","duration_ms":${durationMs},"status":${status},"attributes":${span.attributes},${tail}`;
}

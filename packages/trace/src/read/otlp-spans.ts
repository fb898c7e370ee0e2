/**
 * Converts one OTLP/JSON `ExportTraceServiceRequest` (`resourceSpans[].scopeSpans[].spans[]`) to
 * {@link SpanRecord}s. Ids may be hex or base64 (proto3-JSON `bytes`), times string nanos, kinds
 * and status codes ints or enum names.
 * @module
 */
import { decodeKeyValues } from '../otlp-values.js';
import type { SpanEvent, SpanLink, SpanRecord, SpanSource } from '../span-record.js';
import { normalizeId } from './ids.js';
import { durationMsOf, makeStatus, normalizeKind, normalizeStatusCode, serviceOf } from './normalize.js';
import type { ResourceCache } from './resource-cache.js';
import { nanosToNs } from './time.js';

type Obj = Record<string, unknown>;

/** True when `obj` is an `ExportTraceServiceRequest`. */
export function isOtlpRequest(obj: Obj): boolean {
  return Array.isArray(obj['resourceSpans']);
}

/** Result of converting one request: spans plus reasons for the spans that could not be used. */
export interface OtlpConversion {
  spans: SpanRecord[];
  rejected: string[];
}

/** Converts every span of a request; unusable spans are reported in `rejected`, never thrown. */
export function fromOtlpRequest(obj: Obj, source: SpanSource, resources: ResourceCache): OtlpConversion {
  const spans: SpanRecord[] = [];
  const rejected: string[] = [];
  for (const rs of asArray(obj['resourceSpans'])) {
    const resource = resources.intern(decodeKeyValues((rs['resource'] as Obj | undefined)?.['attributes']));
    const service = serviceOf(resource.attributes);
    // `instrumentationLibrarySpans` is the pre-1.0 name of `scopeSpans`; old exporters still write it.
    for (const ss of [...asArray(rs['scopeSpans']), ...asArray(rs['instrumentationLibrarySpans'])]) {
      const sc = (ss['scope'] ?? ss['instrumentationLibrary']) as Obj | undefined;
      const scope = typeof sc?.['name'] === 'string' && sc['name'] !== '' ? { name: sc['name'], ...(typeof sc['version'] === 'string' && sc['version'] ? { version: sc['version'] } : {}) } : null;
      for (const s of asArray(ss['spans'])) {
        const traceId = normalizeId(s['traceId'], 16);
        const spanId = normalizeId(s['spanId'], 8);
        const startNs = nanosToNs(s['startTimeUnixNano']);
        if (traceId === null || spanId === null || typeof s['name'] !== 'string' || startNs === null || startNs === 0n) {
          rejected.push(traceId === null ? 'invalid traceId' : spanId === null ? 'invalid spanId' : 'missing name or startTimeUnixNano');
          continue;
        }
        const end = nanosToNs(s['endTimeUnixNano']);
        const ended = end !== null && end >= startNs;
        const endNs = ended ? end : startNs;
        const status = (s['status'] ?? {}) as Obj;
        const links = asArray(s['links']).flatMap(toLink);
        spans.push({
          traceId,
          spanId,
          parentSpanId: normalizeId(s['parentSpanId'], 8),
          name: s['name'],
          kind: normalizeKind(s['kind']),
          startNs,
          endNs,
          durationMs: durationMsOf(startNs, endNs),
          ended,
          status: makeStatus(normalizeStatusCode(status['code']), status['message']),
          attributes: decodeKeyValues(s['attributes']),
          events: asArray(s['events']).map(toEvent),
          ...(links.length === 0 ? {} : { links }),
          service,
          resource,
          scope,
          source,
        });
      }
    }
  }
  return { spans, rejected };
}

function toEvent(e: Obj): SpanEvent {
  return { name: String(e['name'] ?? ''), timeNs: nanosToNs(e['timeUnixNano']) ?? 0n, attributes: decodeKeyValues(e['attributes']) };
}

// a link without valid ids is left out
function toLink(l: Obj): SpanLink[] {
  const traceId = normalizeId(l['traceId'], 16);
  const spanId = normalizeId(l['spanId'], 8);
  return traceId === null || spanId === null ? [] : [{ traceId, spanId, attributes: decodeKeyValues(l['attributes']) }];
}

function asArray(v: unknown): Obj[] {
  return Array.isArray(v) ? (v.filter((x) => x !== null && typeof x === 'object') as Obj[]) : [];
}

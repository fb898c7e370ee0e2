// One console-exporter span line (the record shape docs/observability describes) for the
// generated runs of the benchmarks and of the large-run tests.

/** A span of a generated run. */
export interface GeneratedSpan {
  traceId: string;
  spanId: string;
  parent: string | null;
  name: string;
  kind: string;
  service: string;
  runId: string;
  start: bigint;
  end: bigint;
  attributes: object;
  /** The status message of a span that failed; absent for one that did not. */
  error?: string;
}

/** The JSON line the console exporter writes for `span`. */
export function consoleSpanLine(span: GeneratedSpan): string {
  return JSON.stringify({
    type: 'span',
    trace_id: span.traceId,
    span_id: span.spanId,
    parent_span_id: span.parent,
    name: span.name,
    kind: span.kind,
    start_time_unix_nano: span.start.toString(),
    end_time_unix_nano: span.end.toString(),
    duration_ms: Number(span.end - span.start) / 1e6,
    status: { code: span.error === undefined ? 'UNSET' : 'ERROR', message: span.error ?? null },
    attributes: span.attributes,
    events: [],
    links: [],
    resource: { attributes: { 'service.name': span.service, 'nemo.run.id': span.runId } },
    scope: { name: 'nemo.gym', version: '0.1.0' },
  });
}

/**
 * Spans a run may hold beside gym's console records: a Python SDK span pretty-printed into a server
 * log, and an OTLP/JSON export request. Tests that read a mixed run write both.
 * @module
 */

/** A Python server's log: a startup line, then its `POST /verify` span as the Python SDK's console exporter prints it. */
export function pythonVerifyLog(status: { status_code: string; description?: string }): string {
  const span = JSON.stringify(
    {
      name: 'POST /verify',
      context: { trace_id: '0x4bf92f3577b34da6a3ce929d0e0e4736', span_id: '0x00f067aa0ba902b7' },
      kind: 'SpanKind.SERVER',
      parent_id: null,
      start_time: '2026-01-01T00:00:00.100000Z',
      end_time: '2026-01-01T00:00:00.350500Z',
      status,
      attributes: { 'http.route': '/verify' },
      events: [],
      links: [],
      resource: { attributes: { 'service.name': 'nemo-gym/py_tool' } },
    },
    null,
    4,
  );
  return `INFO: started\n${span}\n`;
}

/** One OTLP/JSON request (one line, no newline) with a `POST /v1/responses` span of `nemo-gym/otlp_model`; `extra` adds span fields. */
export function otlpResponsesRequest(extra: Record<string, unknown>): string {
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'nemo-gym/otlp_model' } }] },
        scopeSpans: [
          {
            scope: { name: 'x' },
            spans: [
              {
                traceId: '5b8efff798038103d269b633813fc60c',
                spanId: 'eee19b7ec3c1b175',
                name: 'POST /v1/responses',
                kind: 2,
                startTimeUnixNano: '1767225600010000000',
                endTimeUnixNano: '1767225600600000000',
                ...extra,
              },
            ],
          },
        ],
      },
    ],
  });
}

// The CLIENT side of a call in one process: the HTTP client with telemetry's client instrumentation
// against a node:http server on loopback, spans read from the console records written to memory.
// The calls are made first, then telemetry shuts down (its flush) and each test reads what it wrote:
// one `HTTP <METHOD>` span per logical request, retries as its events, the traceparent the server
// received naming that span, an error answer marked on it, and the trace id handed to the caller.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { createHttpClient } from '../../src/http/client.js';
import type { HttpClient } from '../../src/http/types.js';
import { initTelemetry } from '../../src/telemetry/init.js';
import { processTelemetry } from '../../src/telemetry/process-telemetry.js';
import { serverTelemetrySettings } from '../../src/telemetry/settings.js';
import type { GymTelemetry } from '../../src/telemetry/state.js';

interface SpanRecord {
  type: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: string;
  status: { code: string; message: string | null };
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
}

describe('client instrumentation', () => {
  const lines: string[] = [];
  const received: IncomingHttpHeaders[] = [];
  let telemetry: GymTelemetry;
  let server: Server;
  let base: string;
  let client: HttpClient;
  let flakyCalls = 0;
  const answers: Record<string, { status: number; traceId?: string | undefined; headers: IncomingHttpHeaders | undefined }> = {};
  let spans: SpanRecord[] = [];

  before(async () => {
    const env = { NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'server,http_client' };
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const started = await initTelemetry({ settings: serverTelemetrySettings(env), serverName: 'caller', serverType: 'responses_api_agents', env, output });
    assert.ok(started, 'telemetry set up');
    telemetry = started;
    server = createServer((req, res) => {
      received.push(req.headers);
      req.resume();
      req.on('end', () => {
        if (req.url === '/flaky' && flakyCalls++ === 0) res.writeHead(503).end('{}');
        else if (req.url === '/missing') res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"no"}');
        else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = createHttpClient({ instrument: processTelemetry(telemetry).client });
    const call = async (name: string, send: () => Promise<{ status: number; traceId?: string | undefined }>) => {
      const { status, traceId } = await send();
      answers[name] = { status, traceId, headers: received.at(-1) };
    };
    await call('ok', () => client.post(`${base}/ok`, { q: 1 }, { rolloutId: 'r-client-1' }));
    await call('flaky', () => client.get(`${base}/flaky`, { retry: { baseDelayMs: 1, maxDelayMs: 1 } }));
    await call('missing', () => client.get(`${base}/missing`, { raw: true, traceparent: false }));
    await client.close();
    await telemetry.shutdown();
    spans = lines.map((line) => JSON.parse(line) as SpanRecord).filter((r) => r.type === 'span');
  });

  after(async () => {
    await client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('makes one CLIENT span per request, names it in the traceparent the server got, and gives its trace id to the caller', () => {
    const answer = answers['ok']!;
    assert.equal(answer.status, 200);
    const span = spans.find((s) => s.attributes['url.full'] === `${base}/ok`);
    assert.ok(span, lines.join('\n'));
    assert.equal(span.name, 'HTTP POST');
    assert.equal(span.kind, 'CLIENT');
    assert.equal(answer.traceId, span.trace_id);
    assert.equal(answer.headers?.['traceparent'], `00-${span.trace_id}-${span.span_id}-01`);
    assert.match(String(answer.headers?.['baggage']), /r-client-1/);
    assert.equal(span.attributes['http.request.method'], 'POST');
    assert.equal(span.attributes['server.address'], '127.0.0.1');
    assert.equal(span.attributes['http.response.status_code'], 200);
    assert.equal(span.attributes['nemo.gym.rollout.id'], 'r-client-1');
    assert.equal(span.status.code, 'UNSET');
  });

  it('keeps a retried request in one span, with a retry event per resend', () => {
    assert.equal(answers['flaky']!.status, 200);
    const flaky = spans.filter((s) => s.attributes['url.full'] === `${base}/flaky`);
    assert.equal(flaky.length, 1);
    assert.deepEqual(
      flaky[0]!.events.map((e) => [e.name, e.attributes['attempt'], e.attributes['reason']]),
      [['gym.http.retry', 1, 'http_503']],
    );
    assert.equal(flaky[0]!.attributes['http.request.resend_count'], 1);
  });

  it('marks an error answer on the span, and a request sent without a traceparent keeps its span', () => {
    const answer = answers['missing']!;
    assert.equal(answer.status, 404);
    assert.equal(answer.headers?.['traceparent'], undefined);
    const span = spans.find((s) => s.attributes['url.full'] === `${base}/missing`);
    assert.ok(span);
    assert.equal(span.attributes['http.response.status_code'], 404);
    assert.deepEqual(span.status, { code: 'ERROR', message: 'HTTP 404' });
  });
});

// A streamed /v1/responses keeps its SERVER span and its `gym.model.responses` span open until the
// last event was written — a caller that reads slowly holds them open — and a caller that leaves
// mid-request ends both (the SERVER span as "client aborted"), with real telemetry in-process.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineModelServer, listen } from '../../src/server/index.js';
import { initTelemetry } from '../../src/telemetry/init.js';
import { processTelemetry } from '../../src/telemetry/process-telemetry.js';
import { serverTelemetrySettings } from '../../src/telemetry/settings.js';
import type { FastifyInstance } from 'fastify';
import type { GymTelemetry } from '../../src/telemetry/state.js';

interface Span {
  type: 'span';
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  end_time_unix_nano: string;
  status: { code: string; message: string | null };
  attributes: Record<string, unknown>;
}

// big enough that the kernel's socket buffers cannot take the whole stream while the caller pauses
const LONG_TEXT = 'x'.repeat(4 * 1024 * 1024);
const PAUSE_MS = 200;

function responseWith(text: string): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    model: 'policy',
    status: 'completed',
    error: null,
    incomplete_details: null,
    output: [{ id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }],
    usage: { input_tokens: 3, output_tokens: 7, total_tokens: 10 },
  };
}

/** Now, on the clock the spans use (wall time in ns, sub-ms precision). */
const nowNs = (): bigint => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1e6));

describe('spans of a streamed /v1/responses', () => {
  const lines: string[] = [];
  let telemetry: GymTelemetry;
  let app: FastifyInstance;
  let url: string;
  let handlerStarted: () => void = () => undefined;
  let spans: Span[] = [];
  const times = { headers: 0n, resumed: 0n };

  before(async () => {
    const env = { NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'server,model_call', OTEL_BSP_SCHEDULE_DELAY: '20' };
    let buffered = '';
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        buffered += chunk.toString('utf8');
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        lines.push(...parts);
        done();
      },
    });
    const started = await initTelemetry({ settings: serverTelemetrySettings(env), serverName: 'policy_model', serverType: 'responses_api_models', env, output });
    assert.ok(started, 'telemetry set up');
    telemetry = started;
    app = defineModelServer({
      name: 'policy_model',
      responses: {
        handler: async (body, { signal }) => {
          if (body.input !== 'hang') return responseWith(LONG_TEXT);
          handlerStarted();
          await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
          throw new Error('aborted');
        },
      },
      chatCompletions: { handler: () => ({}) },
    }).build({ instrumentation: processTelemetry(telemetry).server });
    ({ url } = await listen(app));

    // a slow reader: takes the headers, waits, then reads the whole stream
    const received = await new Promise<number>((resolve, reject) => {
      const req = request(`${url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        times.headers = nowNs();
        res.pause();
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        void sleep(PAUSE_MS).then(() => {
          times.resumed = nowNs();
          res.resume();
        });
      });
      req.on('error', reject);
      req.end(JSON.stringify({ model: 'policy', input: 'long', stream: true }));
    });
    assert.ok(received > LONG_TEXT.length);

    // a caller that leaves while the handler waits
    const reached = new Promise<void>((resolve) => (handlerStarted = resolve));
    const req = request(`${url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ model: 'policy', input: 'hang', stream: true }));
    await reached;
    req.destroy();
    // both spans of the aborted request end on their own, before shutdown
    for (let i = 0; i < 200 && lines.filter((l) => l.includes('client aborted')).length === 0; i++) await sleep(25);
    await app.close();
    await telemetry.shutdown();
    spans = lines.filter((l) => l.startsWith('{"type":"span"')).map((l) => JSON.parse(l) as Span);
  });
  after(async () => {
    await app?.close();
    await telemetry?.shutdown();
  });

  const byTrace = (traceId: string, name: string) => spans.find((s) => s.trace_id === traceId && s.name === name);
  const ok = () => spans.filter((s) => s.name === 'POST /v1/responses' && s.status.code !== 'ERROR');
  const aborted = () => spans.filter((s) => s.name === 'POST /v1/responses' && s.status.message === 'client aborted');

  it('ends both spans when the slow caller has read the stream, not when the headers went out', () => {
    const [server] = ok();
    assert.ok(server, 'the SERVER span of the streamed request');
    const model = byTrace(server.trace_id, 'gym.model.responses');
    assert.ok(model, 'its gym.model.responses span');
    assert.equal(model.parent_span_id, server.span_id);
    // nearer the moment the caller resumed reading than the moment it got the headers
    const midpoint = times.headers + (times.resumed - times.headers) / 2n;
    assert.ok(BigInt(server.end_time_unix_nano) > midpoint, 'the SERVER span ended before the caller read the stream');
    assert.ok(BigInt(model.end_time_unix_nano) > midpoint, 'gym.model.responses ended before the caller read the stream');
    assert.equal(server.attributes['http.response.status_code'], 200);
    assert.equal(model.attributes['gen_ai.usage.output_tokens'], 7);
  });

  it('ends both spans of a caller that left mid-request, while the server ran', () => {
    const [server] = aborted();
    assert.ok(server, 'the SERVER span ended as client aborted');
    assert.equal(server.status.code, 'ERROR');
    assert.notEqual(server.attributes['nemo.span.truncated'], true);
    const model = byTrace(server.trace_id, 'gym.model.responses');
    assert.ok(model, 'its gym.model.responses span ended');
    assert.notEqual(model.attributes['nemo.span.truncated'], true);
  });
});

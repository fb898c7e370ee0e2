// Every CLIENT span a real agent writes carries its phases in the caller: queued, connect (and
// whether the connection was reused), sent, headers and done — in order, inside the span — and the
// first call to each upstream is the one that opened a connection.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords } from '../support/console-records.js';
import type { SpanLine } from '../support/console-records.js';
import { REPO_ROOT, startGymEnv } from '../support/gym-process.js';
import type { GymEnv } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const AGENT = 'example_single_tool_call_simple_agent';
const ROW = readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;
const ROLLOUTS = 3;

const num = (span: SpanLine, key: string) => span.attributes[`gym.http.phase.${key}`] as number;
const startNs = (span: SpanLine) => BigInt(span.start_time_unix_nano);

describe('client phases on the CLIENT spans of a real agent', () => {
  let env: GymEnv;
  let clients: SpanLine[];

  before(async () => {
    env = await startGymEnv(['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'], {
      env: telemetryEnv({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'server,http_client' }),
    });
    // one after another, so the later rollouts find the connections the first one opened
    for (let i = 0; i < ROLLOUTS; i++) {
      const res = await fetch(`${env.url(AGENT)}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ROW });
      assert.equal(res.status, 200);
      await res.arrayBuffer();
    }
    assert.equal(await env.stop(), 143);
    clients = readRecords(env.logDir).spans.filter((s) => s.kind === 'CLIENT');
  });
  after(async () => env?.dispose());

  it('puts every phase on every CLIENT span, in order and inside the span', () => {
    assert.equal(clients.length, ROLLOUTS * 5);
    for (const span of clients) {
      const [queued, connect, sent, headers, done] = ['queued_ms', 'connect_ms', 'sent_at_ms', 'headers_at_ms', 'done_at_ms'].map((k) => num(span, k));
      for (const value of [queued, connect, sent, headers, done]) assert.equal(typeof value, 'number', JSON.stringify(span.attributes));
      assert.equal(typeof span.attributes['gym.http.connection.reused'], 'boolean');
      assert.ok(queued! >= 0 && connect! >= 0);
      assert.ok(Math.abs(queued! + connect! - sent!) < 0.002, `queued + connect = sent in ${JSON.stringify(span.attributes)}`);
      assert.ok(sent! <= headers! && headers! <= done!, `sent ≤ headers ≤ done in ${JSON.stringify(span.attributes)}`);
      assert.ok(done! <= span.duration_ms + 0.001, `done ${done} within the span's ${span.duration_ms} ms`);
    }
  });

  it('marks the first call to each upstream as opening a connection, and later ones as reusing it', () => {
    const byPort = new Map<unknown, SpanLine[]>();
    for (const span of [...clients].sort((a, b) => Number(startNs(a) - startNs(b)))) {
      const port = span.attributes['server.port'];
      byPort.set(port, [...(byPort.get(port) ?? []), span]);
    }
    assert.equal(byPort.size, 2, 'the agent calls the model and the resources server');
    for (const [port, spans] of byPort) {
      const [first, ...rest] = spans;
      assert.equal(first!.attributes['gym.http.connection.reused'], false, `first call to port ${String(port)}`);
      assert.ok(num(first!, 'connect_ms') > 0);
      // sequential rollouts: the last call finds a kept-alive connection
      assert.equal(rest.at(-1)!.attributes['gym.http.connection.reused'], true, `last call to port ${String(port)}`);
      assert.equal(num(rest.at(-1)!, 'connect_ms'), 0);
    }
  });
});

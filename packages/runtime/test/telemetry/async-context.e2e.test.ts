// Where a handler's spans and calls land after an `await`, in a real server process: under
// `async_context: explicit` (the default) the request's scope goes where it is passed on, code that
// does not pass it starts a trace of its own and the process warns once (GYM_W005); under
// `implicit` AsyncLocalStorage carries the scope through every promise, passed or not.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { telemetryEnv } from '../support/rollout-tree.js';

const FIXTURE = new URL('./fixtures/scope-server.ts', import.meta.url).pathname;
const ROUTES = ['span_with_scope', 'span_without_scope', 'call_with_scope', 'call_through_route_http', 'call_without_scope', 'nested', 'verify', 'fail_after_await'];

interface Span {
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: string;
  attributes: Record<string, unknown>;
}

/** Runs the fixture under `mode`, posts each route once (rollout id = the route), and returns its spans and stderr. */
async function runFixture(mode: 'explicit' | 'implicit'): Promise<{ spans: Span[]; stderr: string }> {
  const dir = mkdtempSync(join(tmpdir(), `gym-async-context-${mode}-`));
  const file = join(dir, 'server.log');
  let child: ChildProcess | undefined;
  try {
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', FIXTURE], {
      env: telemetryEnv({
        NEMO_GYM_OTEL_ENABLED: '1',
        NEMO_GYM_OTEL_EXPORTER: 'console',
        NEMO_GYM_OTEL_SPAN_GROUPS: 'server,verify,http_client',
        NEMO_GYM_OTEL_ASYNC_CONTEXT: mode,
        GYM_TELEMETRY_CONSOLE_FILE: file,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
    const url = `http://127.0.0.1:${/listening (\d+)/.exec(chunk.toString())![1]}`;
    for (const route of ROUTES) {
      const body = route === 'verify' ? { responses_create_params: {}, response: { output: [] } } : {};
      const res = await fetch(`${url}/${route}`, { method: 'POST', headers: { 'content-type': 'application/json', baggage: `nemo.gym.rollout.id=${route}` }, body: JSON.stringify(body) });
      assert.equal(res.status, route === 'fail_after_await' ? 500 : 200, await res.text());
    }
    child.kill('SIGTERM');
    await once(child, 'exit');
    const spans = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"type":"span"'))
      .map((l) => JSON.parse(l) as Span);
    return { spans, stderr };
  } finally {
    if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

function spanNamed(spans: Span[], name: string, rolloutId?: string): Span {
  const found = spans.filter((s) => s.name === name && (rolloutId === undefined || s.attributes['nemo.gym.rollout.id'] === rolloutId));
  assert.equal(found.length, 1, `one span '${name}'${rolloutId === undefined ? '' : ` of ${rolloutId}`}: ${found.length}`);
  return found[0]!;
}

const serverOf = (spans: Span[], route: string) => spanNamed(spans, `POST /${route}`, route);
/** The CLIENT span the request of `server` made (it carries the request's rollout id whatever its parent). */
const clientOf = (spans: Span[], server: Span) => spans.find((s) => s.kind === 'CLIENT' && s.attributes['nemo.gym.rollout.id'] === server.attributes['nemo.gym.rollout.id']);

describe('async_context: explicit (the default)', () => {
  let spans: Span[];
  let stderr: string;
  before(async () => ({ spans, stderr } = await runFixture('explicit')));

  it('puts a span started after an await under the scope passed to it', () => {
    assert.equal(spanNamed(spans, 'fixture.with_scope').parent_span_id, serverOf(spans, 'span_with_scope').span_id);
    assert.equal(spanNamed(spans, 'fixture.with_scope').attributes['nemo.gym.rollout.id'], 'span_with_scope');
  });

  it("puts a call made after an await under the scope passed to it, and the callee's span under the call", () => {
    const server = serverOf(spans, 'call_with_scope');
    const client = clientOf(spans, server)!;
    assert.equal(client.parent_span_id, server.span_id);
    assert.equal(client.attributes['nemo.gym.rollout.id'], 'call_with_scope');
    assert.equal(spans.find((s) => s.name === 'POST /seed_session' && s.parent_span_id === client.span_id)?.trace_id, server.trace_id);
  });

  it("puts a call made after an await through the handler's own client (route.http) under the request, no scope passed", () => {
    const server = serverOf(spans, 'call_through_route_http');
    const client = clientOf(spans, server)!;
    assert.equal(client.parent_span_id, server.span_id);
    assert.equal(client.attributes['nemo.gym.rollout.id'], 'call_through_route_http');
  });

  it("hands a span's own scope to its function: what it starts after an await is its child", () => {
    const outer = spanNamed(spans, 'fixture.outer');
    assert.equal(outer.parent_span_id, serverOf(spans, 'nested').span_id);
    assert.equal(spanNamed(spans, 'fixture.inner').parent_span_id, outer.span_id);
  });

  it("gives a verify handler gym.verify's scope", () => {
    const verify = spanNamed(spans, 'gym.verify', 'verify');
    assert.equal(verify.parent_span_id, serverOf(spans, 'verify').span_id);
    assert.equal(spanNamed(spans, 'fixture.grade').parent_span_id, verify.span_id);
  });

  it('starts a trace of its own for a span or call whose scope was not passed on, and warns once', () => {
    const detached = spanNamed(spans, 'fixture.without_scope');
    assert.equal(detached.parent_span_id, null);
    assert.notEqual(detached.trace_id, serverOf(spans, 'span_without_scope').trace_id);
    const call = spans.filter((s) => s.kind === 'CLIENT' && s.parent_span_id === null);
    assert.equal(call.length, 1, 'the unscoped call is a root CLIENT span');
    assert.equal(call[0]!.attributes['nemo.gym.rollout.id'], undefined);
    assert.equal(stderr.match(/GYM_W005/g)?.length, 1, stderr);
    assert.match(stderr, /The span 'fixture\.without_scope' started outside any request's trace scope/);
    assert.match(stderr, /NEMO_GYM_OTEL_ASYNC_CONTEXT=implicit/);
  });

  it("writes the server's error log line of a handler that failed after an await with the request's trace ids", () => {
    const server = serverOf(spans, 'fail_after_await');
    const line = stderr.split('\n').find((l) => l.includes('request handler failed'));
    assert.ok(line, stderr);
    const record = JSON.parse(line) as Record<string, unknown>;
    assert.equal(record['trace_id'], server.trace_id);
    assert.equal(record['span_id'], server.span_id);
  });
});

describe('async_context: implicit', () => {
  let spans: Span[];
  let stderr: string;
  before(async () => ({ spans, stderr } = await runFixture('implicit')));

  it('carries the request scope through promises: a span or call not given it still lands in the request', () => {
    assert.equal(spanNamed(spans, 'fixture.without_scope').parent_span_id, serverOf(spans, 'span_without_scope').span_id);
    const server = serverOf(spans, 'call_without_scope');
    assert.equal(clientOf(spans, server)!.parent_span_id, server.span_id);
    assert.doesNotMatch(stderr, /GYM_W005/);
  });

  it('puts passed scopes where explicit mode does', () => {
    assert.equal(spanNamed(spans, 'fixture.with_scope').parent_span_id, serverOf(spans, 'span_with_scope').span_id);
    assert.equal(spanNamed(spans, 'fixture.inner').parent_span_id, spanNamed(spans, 'fixture.outer').span_id);
    assert.equal(spanNamed(spans, 'fixture.grade').parent_span_id, spanNamed(spans, 'gym.verify', 'verify').span_id);
  });
});

// The route-level hooks of the server instrumentation with real telemetry (`default`, console lines
// into a stream in this process): the SERVER span of a gym route gets its name and attribute
// template from the route, a 404 gets the not-found handler's, the liveness probe none, and the
// endpoint's span sits under the SERVER span; with telemetry off the app installs no hook and the
// handler still gets its client.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { addJsonRoute, createServerApp } from '../../src/server/index.js';
import { initTelemetry } from '../../src/telemetry/init.js';
import { processTelemetry } from '../../src/telemetry/process-telemetry.js';
import { serverTelemetrySettings } from '../../src/telemetry/settings.js';
import type { FastifyInstance } from 'fastify';

interface Line {
  type: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: string;
  attributes: Record<string, unknown>;
}

const ENV = { NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'default' };

function verifyApp(instrumentation: ReturnType<typeof processTelemetry>['server']): FastifyInstance {
  const app = createServerApp({ name: 'hooks_fixture', ...(instrumentation === undefined ? {} : { instrumentation }) });
  addJsonRoute(app, { method: 'POST', path: '/verify', input: z.looseObject({}), handler: (_body, route) => ({ reward: 1, bound: route.http !== undefined }), endpoint: 'verify' });
  return app;
}

describe('route-level server hooks, telemetry on', () => {
  let lines: Line[] = [];
  before(async () => {
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const telemetry = await initTelemetry({ settings: serverTelemetrySettings(ENV), serverName: 'hooks_fixture', serverType: 'resources_servers', env: ENV, output });
    assert.ok(telemetry, 'telemetry is on');
    const app = verifyApp(processTelemetry(telemetry).server);
    const headers = { baggage: 'nemo.gym.rollout.id=7-0', traceparent: '00-543c8adacbf1d9c0379b59286beff5ae-076c18e84ac099fc-01' };
    assert.equal((await app.inject({ method: 'POST', url: '/verify?x=1', headers, payload: {} })).statusCode, 200);
    assert.equal((await app.inject({ method: 'POST', url: '/verify', payload: { a: 1 } })).statusCode, 200);
    assert.equal((await app.inject({ method: 'GET', url: '/missing' })).statusCode, 404);
    assert.equal((await app.inject({ method: 'GET', url: '/' })).statusCode, 200);
    await app.close();
    await telemetry.shutdown();
    lines = text
      .split('\n')
      .filter((l) => l.startsWith('{"type":"span"'))
      .map((l) => JSON.parse(l) as Line);
  });

  it("names a gym route's SERVER span from the route, with the route's attribute template and the request's own values", () => {
    const servers = lines.filter((l) => l.kind === 'SERVER' && l.name === 'POST /verify');
    assert.equal(servers.length, 2);
    const [first, second] = servers;
    for (const span of servers) {
      assert.equal(span.attributes['http.request.method'], 'POST');
      assert.equal(span.attributes['http.route'], '/verify');
      assert.equal(span.attributes['url.path'], '/verify');
      assert.equal(span.attributes['nemo.gym.server.name'], 'hooks_fixture');
      assert.equal(span.attributes['http.response.status_code'], 200);
    }
    // one request's values never leak into the next one's attributes (the template is copied)
    assert.equal(first!.attributes['nemo.gym.rollout.id'], '7-0');
    assert.equal(first!.parent_span_id, '076c18e84ac099fc');
    assert.equal(second!.attributes['nemo.gym.rollout.id'], undefined);
    assert.equal(second!.parent_span_id, null);
  });

  it("puts the endpoint's span under the request's SERVER span", () => {
    for (const server of lines.filter((l) => l.name === 'POST /verify')) {
      assert.equal(lines.filter((l) => l.name === 'gym.verify' && l.parent_span_id === server.span_id).length, 1);
    }
  });

  it('gives a 404 the not-found handler’s span, named by its method, and the liveness probe none', () => {
    const missing = lines.filter((l) => l.kind === 'SERVER' && l.name === 'GET');
    assert.equal(missing.length, 1);
    assert.equal(missing[0]!.attributes['url.path'], '/missing');
    assert.equal(missing[0]!.attributes['http.route'], undefined);
    assert.equal(missing[0]!.attributes['http.response.status_code'], 404);
    assert.equal(lines.filter((l) => l.kind === 'SERVER').length, 3, 'no span for GET /');
  });
});

describe('route-level server hooks, telemetry off', () => {
  let app: FastifyInstance;
  before(() => (app = verifyApp(processTelemetry(undefined).server)));
  after(() => app.close());

  it('installs no hook and still hands the handler its client', async () => {
    const res = await app.inject({ method: 'POST', url: '/verify', payload: {} });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { reward: 1, bound: true });
    assert.equal(res.headers['traceresponse'], undefined);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { weather } from './weather-server.js';
import { addJsonRoute, createServerApp } from '../../src/server/index.js';
import type { FastifyInstance } from 'fastify';

describe('server instrumentation', () => {
  const events: string[] = [];
  let app: FastifyInstance;
  before(() => {
    app = weather.build({
      instrumentation: {
        onRequest: (request) => events.push(`start ${request.method} ${request.url}`),
        onResponse: (request, reply, durationMs) => {
          assert.ok(durationMs >= 0);
          events.push(`end ${request.method} ${request.routeOptions.url ?? '-'} ${reply.statusCode}`);
        },
        wrapHandler: async (request, handler) => {
          events.push(`handler ${request.routeOptions.url}`);
          return handler(undefined);
        },
      },
    });
  });
  after(() => app.close());

  it('calls onRequest, wrapHandler and onResponse with the route template and status', async () => {
    events.length = 0;
    await app.inject({ method: 'POST', url: '/ng-rollout/r1/get_weather', payload: { city: 'Rome' } });
    await app.inject({ method: 'POST', url: '/get_weather', payload: { city: 3 } });
    await app.inject({ method: 'GET', url: '/missing' });
    assert.deepEqual(events, [
      'start POST /get_weather',
      'handler /get_weather',
      'end POST /get_weather 200',
      'start POST /get_weather',
      'handler /get_weather',
      'end POST /get_weather 422',
      'start GET /missing',
      'end GET - 404',
    ]);
  });

  it('serves the request when an instrumentation hook throws', async () => {
    const broken = weather.build({
      instrumentation: {
        onRequest: () => {
          throw new Error('exporter down');
        },
        onResponse: () => {
          throw new Error('exporter down');
        },
      },
    });
    const res = await broken.inject({ method: 'GET', url: '/' });
    assert.equal(res.statusCode, 200);
    await broken.close();
  });

  it('sets route-level hooks up once per route, and runs only them (the not-found handler has its own)', async () => {
    const routes: string[] = [];
    const seen: string[] = [];
    const routed = weather.build({
      instrumentation: {
        forRoute: (route) => {
          routes.push(`${route.method ?? '*'} ${route.path ?? '(not found)'}`);
          const tag = route.path ?? '(not found)';
          return {
            onRequest: (request) => seen.push(`start ${tag} ${request.method}`),
            onSend: () => seen.push(`send ${tag}`),
            onResponse: (_request, reply) => seen.push(`end ${tag} ${reply.statusCode}`),
            wrapHandler: async (_request, handler) => (seen.push(`handler ${tag}`), handler(undefined)),
          };
        },
        // the app-wide hooks are not installed beside route-level ones
        onRequest: () => seen.push('app-wide onRequest'),
        onResponse: () => seen.push('app-wide onResponse'),
      },
    });
    const setUp = routes.length;
    assert.ok(routes.includes('POST /get_weather') && routes.includes('* (not found)'), routes.join(', '));
    await routed.inject({ method: 'POST', url: '/get_weather', payload: { city: 'Rome' } });
    await routed.inject({ method: 'POST', url: '/get_weather', payload: { city: 'Oslo' } });
    await routed.inject({ method: 'GET', url: '/missing' });
    assert.equal(routes.length, setUp, 'no route is set up again per request');
    assert.deepEqual(seen, [
      ...['start /get_weather POST', 'handler /get_weather', 'send /get_weather', 'end /get_weather 200'],
      ...['start /get_weather POST', 'handler /get_weather', 'send /get_weather', 'end /get_weather 200'],
      ...['start (not found) GET', 'send (not found)', 'end (not found) 404'],
    ]);
    await routed.close();
  });

  it("hands each handler the app's HTTP client bound to its request's scope", async () => {
    const sent: unknown[] = [];
    const client = {
      closed: false,
      request: async (request: { scope?: unknown }) => (sent.push(request.scope), { status: 200, headers: {}, body: null, text: '', cookies: {}, setCookie: [] }),
      post: () => Promise.reject(new Error('unused')),
      get: () => Promise.reject(new Error('unused')),
      close: async () => undefined,
    };
    const scope = { the: 'scope' };
    const app = createServerApp({ name: 'bound', http: client as never, instrumentation: { wrapHandler: (_request, handler) => handler(scope as never) } });
    addJsonRoute(app, {
      method: 'POST',
      path: '/call',
      handler: async (_body, route) => (await route.http.post('http://127.0.0.1:1/x', {}), await route.http.post('http://127.0.0.1:1/y', {}, { scope: 'own' as never }), 'ok'),
    });
    const res = await app.inject({ method: 'POST', url: '/call', payload: {} });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(sent, [scope, 'own']);
    await app.close();
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { weather } from './weather-server.js';
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
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_CLIENT_KEEP_ALIVE_TIMEOUT_MS } from '../../src/http/index.js';
import { addJsonRoute, createServerApp, listen } from '../../src/server/index.js';
import { weather } from './weather-server.js';
import type { FastifyInstance } from 'fastify';

describe('server ingress', () => {
  let app: FastifyInstance;
  before(() => {
    app = weather.build({ bodyLimitBytes: 1024 });
  });
  after(() => app.close());

  it('answers GET / with {"status":"ok"}', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  it('answers an unknown route with 404 {"detail":"Not Found"}', async () => {
    const res = await app.inject({ method: 'POST', url: '/nope', payload: {} });
    assert.equal(res.statusCode, 404);
    assert.deepEqual(res.json(), { detail: 'Not Found' });
  });

  it('refuses a foreign Host name with 403 before reading the body, on a route, an unknown URL and a rollout URL', async () => {
    for (const [method, url] of [
      ['POST', '/get_weather'],
      ['GET', '/'],
      ['POST', '/nope'],
      ['POST', '/ng-rollout/r1/get_weather'],
    ] as const) {
      const res = await app.inject({ method, url, headers: { host: 'attacker.example:8000', 'content-type': 'application/json' }, ...(method === 'POST' ? { payload: '{not json' } : {}) });
      assert.equal(res.statusCode, 403, url);
      assert.match(res.json().detail, /^Host 'attacker\.example:8000' is not a name this server answers to \(DNS-rebinding protection\)/, url);
    }
    const local = await app.inject({ method: 'POST', url: '/get_weather', headers: { host: 'localhost:8000' }, payload: { city: 'Oslo' } });
    assert.equal(local.statusCode, 200);
  });

  it('answers a wrong tool argument type with a 422 naming the field, and keeps serving', async () => {
    const res = await app.inject({ method: 'POST', url: '/get_weather', payload: { city: 42 } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json(), { detail: [{ loc: ['body', 'city'], msg: 'Input should be a valid string', type: 'string_type' }] });
    const ok = await app.inject({ method: 'POST', url: '/get_weather', payload: { city: 'Oslo' } });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.json().weather_description, 'cold in Oslo');
  });

  it('reports a missing field and a nested path like FastAPI', async () => {
    const missing = await app.inject({ method: 'POST', url: '/get_weather', payload: {} });
    assert.deepEqual(missing.json(), { detail: [{ loc: ['body', 'city'], msg: 'Field required', type: 'missing' }] });
    const nested = await app.inject({
      method: 'POST',
      url: '/verify',
      payload: { responses_create_params: {}, response: { output: 'nope' } },
    });
    assert.equal(nested.statusCode, 422);
    assert.deepEqual(nested.json().detail[0].loc, ['body', 'response', 'output']);
    assert.equal(nested.json().detail[0].type, 'list_type');
  });

  it('answers malformed JSON with 400', async () => {
    const res = await app.inject({ method: 'POST', url: '/get_weather', headers: { 'content-type': 'application/json' }, payload: '{"city": ' });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(
      res.json().detail.map((d: { loc: unknown; msg: string; type: string }) => [d.loc, d.msg, d.type]),
      [[['body'], 'JSON decode error', 'json_invalid']],
    );
  });

  it('answers a body over the limit with 413', async () => {
    const res = await app.inject({ method: 'POST', url: '/get_weather', payload: { city: 'x'.repeat(2000) } });
    assert.equal(res.statusCode, 413);
    assert.match(res.json().detail, /larger than 1024 bytes/);
  });

  it("answers a throwing handler with the original's 500 string body and no stack", async () => {
    const res = await app.inject({ method: 'POST', url: '/explode', payload: {} });
    assert.equal(res.statusCode, 500);
    assert.match(res.headers['content-type'] as string, /^application\/json/);
    assert.equal(res.json(), 'TypeError("Cannot read properties of undefined (reading \'x\')")');
    assert.doesNotMatch(res.body, /at .*\.ts:\d+/);
    const again = await app.inject({ method: 'GET', url: '/' });
    assert.equal(again.statusCode, 200);
  });

  it('answers a non-error throw with "An unknown error occurred"', async () => {
    const res = await app.inject({ method: 'POST', url: '/throw_string', payload: {} });
    assert.equal(res.statusCode, 500);
    assert.equal(res.json(), 'An unknown error occurred');
  });

  it('answers a GymHttpRequestError with its status and detail', async () => {
    const res = await app.inject({ method: 'POST', url: '/reject', payload: {} });
    assert.equal(res.statusCode, 409);
    assert.deepEqual(res.json(), { detail: 'already seeded' });
  });

  it('treats an empty POST body as {}', async () => {
    const res = await app.inject({ method: 'POST', url: '/seed_session' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {});
  });

  it('sends string results as JSON strings on routes added with addJsonRoute', async () => {
    const custom = createServerApp({ name: 'head' });
    addJsonRoute(custom, { method: 'GET', path: '/global_config_dict_yaml', handler: () => 'a: 1\n' });
    const res = await custom.inject({ method: 'GET', url: '/global_config_dict_yaml' });
    assert.equal(res.body, '"a: 1\\n"');
    assert.equal(res.json(), 'a: 1\n');
    await custom.close();
  });

  it('keeps idle sockets open longer than the client does', async () => {
    const custom = createServerApp({ name: 'keepalive' });
    await listen(custom);
    assert.ok(custom.server.keepAliveTimeout > DEFAULT_CLIENT_KEEP_ALIVE_TIMEOUT_MS);
    await custom.close();
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpClient, GymHttpConnectionError, GymHttpStatusError } from '../../src/http/index.js';
import { sendJson, testServers } from './test-server.js';
import type { RetryEvent } from '../../src/http/index.js';

const FAST = { baseDelayMs: 1, maxDelayMs: 2 };

describe('http client retries', () => {
  const { start, closeAll } = testServers();
  const client = createHttpClient({ retry: FAST });
  after(async () => {
    await client.close();
    await closeAll();
  });

  it('retries a dropped connection until the server answers', async () => {
    const server = await start((req, res, _body, n) => {
      if (n <= 2) req.socket.destroy();
      else sendJson(res, 200, { ok: true });
    });
    const res = await client.post(`${server.url}/run`, { a: 1 });
    assert.deepEqual(res.body, { ok: true });
    assert.equal(server.requests, 3);
  });

  it('stops after maxAttempts when the connection always drops', async () => {
    const server = await start((req) => req.socket.destroy());
    await assert.rejects(client.post(`${server.url}/run?key=secret`, {}), (err: unknown) => {
      assert.ok(err instanceof GymHttpConnectionError);
      assert.equal(err.code, 'GYM_HTTP_CONNECTION');
      assert.equal(err.attempts, 5);
      assert.equal(err.url, `${server.url}/run`);
      return true;
    });
    assert.equal(server.requests, 5);
  });

  it('retries 503 and 429 and returns the later success', async () => {
    const server = await start((_req, res, _body, n) => {
      if (n === 1) sendJson(res, 503, { detail: 'busy' });
      else if (n === 2) sendJson(res, 429, { detail: 'slow down' }, { 'retry-after': '0' });
      else sendJson(res, 200, { n });
    });
    const res = await client.post(`${server.url}/v1/responses`, {});
    assert.deepEqual(res.body, { n: 3 });
  });

  it('does not retry a 500 and carries the upstream body', async () => {
    const server = await start((_req, res) => sendJson(res, 500, "ValueError('boom')"));
    await assert.rejects(client.post(`${server.url}/verify`, {}), (err: unknown) => {
      assert.ok(err instanceof GymHttpStatusError);
      assert.equal(err.code, 'GYM_HTTP_STATUS');
      assert.equal(err.status, 500);
      assert.equal(err.bodyText, '"ValueError(\'boom\')"');
      assert.match(err.message, /POST .*\/verify answered 500: ValueError\('boom'\)/);
      return true;
    });
    assert.equal(server.requests, 1);
  });

  it('does not retry a 4xx and keeps the 422 detail', async () => {
    const detail = [{ loc: ['body', 'city'], msg: 'Input should be a valid string', type: 'string_type' }];
    const server = await start((_req, res) => sendJson(res, 422, { detail }));
    await assert.rejects(client.post(`${server.url}/get_weather`, { city: 1 }), (err: unknown) => {
      assert.ok(err instanceof GymHttpStatusError);
      assert.equal(err.status, 422);
      assert.deepEqual(err.body, { detail });
      return true;
    });
    assert.equal(server.requests, 1);
  });

  it("keeps its own code when an upstream answers with a gym code, the upstream's as upstreamCode", async () => {
    const server = await start((_req, res) => sendJson(res, 400, { error: { code: 'GYM_CONFIG_MISSING_VALUE', message: 'set policy_model.name' } }));
    await assert.rejects(client.get(`${server.url}/x`), (err: unknown) => {
      assert.ok(err instanceof GymHttpStatusError);
      assert.equal(err.code, 'GYM_HTTP_STATUS');
      assert.equal(err.upstreamCode, 'GYM_CONFIG_MISSING_VALUE');
      assert.equal(err.upstreamMessage, 'set policy_model.name');
      return true;
    });
  });

  it('keeps its own code for a foreign error code', async () => {
    const server = await start((_req, res) => sendJson(res, 401, { error: { code: 'invalid_api_key', message: 'bad key' } }));
    await assert.rejects(client.get(`${server.url}/x`), (err: unknown) => {
      assert.ok(err instanceof GymHttpStatusError);
      assert.equal(err.code, 'GYM_HTTP_STATUS');
      assert.equal(err.upstreamCode, 'invalid_api_key');
      return true;
    });
  });

  it('sends exactly once with retry: false', async () => {
    const server = await start((req) => req.socket.destroy());
    await assert.rejects(client.post(`${server.url}/run`, {}, { retry: false }), GymHttpConnectionError);
    assert.equal(server.requests, 1);
  });

  it('does not retry a dropped connection when retryConnectionErrors is off', async () => {
    const server = await start((req) => req.socket.destroy());
    await assert.rejects(client.post(`${server.url}/run`, {}, { retry: { retryConnectionErrors: false } }), GymHttpConnectionError);
    assert.equal(server.requests, 1);
  });

  it('gives up on a refused connection after maxAttempts', async () => {
    const server = await start((_req, res) => sendJson(res, 200, {}));
    const url = server.url;
    await server.close();
    const events: RetryEvent[] = [];
    const probe = createHttpClient({
      retry: { ...FAST, maxAttempts: 3 },
      instrument: { wrap: (_req, send) => send(undefined, (event) => events.push(event)) },
    });
    await assert.rejects(probe.post(`${url}/run`, {}), (err: unknown) => err instanceof GymHttpConnectionError && err.attempts === 3);
    assert.deepEqual(
      events.map((e) => [e.attempt, e.reason]),
      [
        [1, 'connection'],
        [2, 'connection'],
      ],
    );
    await probe.close();
  });
});

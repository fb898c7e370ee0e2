import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpClient, GymHttpAbortedError, GymHttpClientClosedError, GymHttpInvalidJsonError, GymHttpInvalidUrlError, GymHttpStatusError, GymHttpTimeoutError } from '../../src/http/index.js';
import { sendJson, testServers } from './test-server.js';
import type { ServerResponse } from 'node:http';

describe('http client', () => {
  const { start, closeAll } = testServers();
  const held: ServerResponse[] = [];
  const client = createHttpClient();
  after(async () => {
    await client.close();
    for (const res of held) res.destroy();
    await closeAll();
  });

  it('sends JSON and parses the JSON answer', async () => {
    const server = await start((req, res, body) => sendJson(res, 200, { method: req.method, type: req.headers['content-type'], got: JSON.parse(body) }));
    const res = await client.post<{ method: string; type: string; got: unknown }>(`${server.url}/echo`, { city: 'Paris', n: [1, 2] });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { method: 'POST', type: 'application/json', got: { city: 'Paris', n: [1, 2] } });
  });

  it('sends per-request cookies and returns the set-cookie values', async () => {
    const server = await start((req, res) => sendJson(res, 200, { cookie: req.headers.cookie ?? null }, { 'set-cookie': ['s1=abc.def; Path=/; HttpOnly', 's2=xyz'] }));
    const first = await client.post(`${server.url}/seed_session`, {}, { cookies: { a: '1', b: '2' } });
    assert.deepEqual(first.body, { cookie: 'a=1; b=2' });
    assert.deepEqual(first.cookies, { s1: 'abc.def', s2: 'xyz' });
    assert.deepEqual(first.setCookie, ['s1=abc.def; Path=/; HttpOnly', 's2=xyz']);
    // no jar: a request without cookies sends none
    const second = await client.post(`${server.url}/verify`, {});
    assert.deepEqual(second.body, { cookie: null });
  });

  it('returns a non-2xx answer as is with raw', async () => {
    const server = await start((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal Server Error');
    });
    const res = await client.post(`${server.url}/tool`, {}, { raw: true });
    assert.equal(res.status, 500);
    assert.equal(res.text, 'Internal Server Error');
    assert.equal(res.body, undefined);
  });

  it('fails a 2xx answer that is not JSON', async () => {
    const server = await start((_req, res) => res.end('<html>'));
    await assert.rejects(client.get(`${server.url}/`), GymHttpInvalidJsonError);
  });

  it('times out a request that gets no answer', async () => {
    const server = await start((_req, res) => held.push(res));
    await assert.rejects(client.post(`${server.url}/slow`, {}, { timeoutMs: 50 }), (err: unknown) => {
      assert.ok(err instanceof GymHttpTimeoutError);
      assert.equal(err.code, 'GYM_HTTP_TIMEOUT');
      return true;
    });
  });

  it("stops when the caller's signal aborts", async () => {
    let arrived!: () => void;
    const seen = new Promise<void>((resolve) => (arrived = resolve));
    const server = await start((_req, res) => {
      held.push(res);
      arrived();
    });
    const controller = new AbortController();
    const pending = client.post(`${server.url}/slow`, {}, { signal: controller.signal });
    await seen;
    controller.abort(new Error('user cancelled'));
    await assert.rejects(pending, GymHttpAbortedError);
  });

  it('rejects a URL that is not absolute http(s)', async () => {
    await assert.rejects(client.get('/relative'), GymHttpInvalidUrlError);
    await assert.rejects(client.get('file:///etc/passwd'), GymHttpInvalidUrlError);
  });

  it('strips the query string from error URLs', async () => {
    const server = await start((_req, res) => sendJson(res, 404, { detail: 'Not Found' }));
    await assert.rejects(client.get(`${server.url}/x?api_key=secret`), (err: unknown) => {
      assert.ok(err instanceof GymHttpStatusError);
      assert.equal(err.url, `${server.url}/x`);
      assert.doesNotMatch(err.message, /secret/);
      return true;
    });
  });

  it('opens at most `connections` sockets per upstream', async () => {
    const waiting: (() => void)[] = [];
    let released = false;
    const server = await start((_req, res, _body, n) => {
      const answer = () => sendJson(res, 200, { n });
      if (released) return answer();
      waiting.push(answer);
      // hold answers until the pool has filled all 4 sockets, so the bound is really exercised
      if (waiting.length === 4) {
        released = true;
        for (const fn of waiting.splice(0)) fn();
      }
    });
    const bounded = createHttpClient({ connections: 4 });
    const results = await Promise.all(Array.from({ length: 50 }, () => bounded.post(`${server.url}/run`, {})));
    assert.equal(results.length, 50);
    assert.equal(server.requests, 50);
    assert.equal(server.maxOpenSockets, 4);
    assert.ok(server.totalSockets <= 4, `opened ${server.totalSockets} sockets`);
    await bounded.close();
  });

  it('passes every logical request through the instrumentation once, with its headers on each attempt', async () => {
    const traceparents: (string | undefined)[] = [];
    const server = await start((req, res, _body, n) => {
      traceparents.push(req.headers.traceparent as string | undefined);
      if (n === 1) req.socket.destroy();
      else sendJson(res, 200, {});
    });
    const wrapped: string[] = [];
    const instrumented = createHttpClient({
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      instrument: {
        async wrap(request, send) {
          wrapped.push(`${request.method} ${request.url}`);
          const res = await send({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
          assert.equal(res.status, 200);
          return res;
        },
      },
    });
    await instrumented.post(`${server.url}/verify?q=1`, {});
    assert.deepEqual(wrapped, [`POST ${server.url}/verify`]);
    assert.equal(traceparents.length, 2);
    assert.ok(traceparents.every((t) => t === '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'));
    await instrumented.close();
  });

  it('returns the same promise from close() and refuses requests afterwards', async () => {
    const server = await start((_req, res) => sendJson(res, 200, {}));
    const own = createHttpClient();
    await own.get(`${server.url}/`);
    const first = own.close();
    assert.equal(own.close(), first);
    await first;
    assert.equal(own.closed, true);
    await assert.rejects(own.get(`${server.url}/`), GymHttpClientClosedError);
  });
});

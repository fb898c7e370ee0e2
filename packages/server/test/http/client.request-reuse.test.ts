// What the client makes once and reuses: the encoded body (every attempt of a retried request sends
// the same bytes) and the parsed URL (kept by its whole text, query included, in a bounded cache).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpClient } from '../../src/http/index.js';
import { sendJson, testServers } from './test-server.js';

describe('http client, what a request reuses', () => {
  const { start, closeAll } = testServers();
  const client = createHttpClient({ retry: { baseDelayMs: 1, maxDelayMs: 2 } });
  after(async () => {
    await client.close();
    await closeAll();
  });

  it('sends the same bytes, multi-byte text included, on every attempt of a retried request', async () => {
    const seen: Array<{ body: string; length: string | undefined }> = [];
    const server = await start((req, res, body, n) => {
      seen.push({ body, length: req.headers['content-length'] });
      if (n < 3) sendJson(res, 503, { detail: 'busy' });
      else sendJson(res, 200, JSON.parse(body));
    });
    const payload = { city: 'Zürich', note: 'naïve ✓ 你好' };
    const res = await client.post(`${server.url}/v1/responses`, payload);
    assert.deepEqual(res.body, payload);
    const expected = JSON.stringify(payload);
    assert.deepEqual(
      seen,
      [1, 2, 3].map(() => ({ body: expected, length: String(Buffer.byteLength(expected)) })),
    );
  });

  it('sends each URL its own query, whether the URL was seen before or not', async () => {
    const server = await start((req, res) => sendJson(res, 200, { url: req.url }));
    for (const url of ['/a?x=1', '/a?x=2', '/a?x=1', '/a', '/a?x=2']) {
      const res = await client.get<{ url: string }>(`${server.url}${url}`);
      assert.equal(res.body.url, url);
    }
  });

  it('reaches every path when far more distinct URLs are called than the cache keeps', async () => {
    const server = await start((req, res) => sendJson(res, 200, { url: req.url }));
    // the rollout-prefixed URLs of many rollouts: each is new, the cache starts afresh when full
    for (let i = 0; i < 1300; i++) {
      const url = `/ng-rollout/r${i}/v1/responses`;
      const res = await client.post<{ url: string }>(`${server.url}${url}`, {});
      assert.equal(res.body.url, url);
    }
    const again = await client.post<{ url: string }>(`${server.url}/ng-rollout/r7/v1/responses`, {});
    assert.equal(again.body.url, '/ng-rollout/r7/v1/responses');
  });
});

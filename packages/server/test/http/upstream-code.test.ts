// An upstream's own error code never replaces ours: through a real chain (client → gym server →
// upstream), every hop's error says what failed at that hop, and the upstream's code travels as
// `upstreamCode` / in the 500 body's text, never as `code`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpClient, GymHttpStatusError } from '../../src/http/index.js';
import type { HttpClient } from '../../src/http/index.js';
import { addJsonRoute, createServerApp, listen } from '../../src/server/index.js';
import type { FastifyInstance } from 'fastify';

describe("an upstream's GYM_* code", () => {
  let upstream: Server;
  let upstreamUrl: string;
  let app: FastifyInstance;
  let appUrl: string;
  let client: HttpClient;
  let innerError: unknown;

  before(async () => {
    upstream = createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'GYM_CONFIG_MISSING_VALUE', message: 'set policy_model.name' } }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    client = createHttpClient();
    app = createServerApp({ name: 'relay' });
    addJsonRoute(app, {
      method: 'POST',
      path: '/relay',
      handler: async () => {
        try {
          return await client.post(`${upstreamUrl}/x`, {}, { retry: false });
        } catch (error) {
          innerError = error;
          throw error;
        }
      },
    });
    appUrl = (await listen(app)).url;
  });
  after(async () => {
    await app.close();
    await client.close();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it("is the upstreamCode of the relay's error, whose own code stays GYM_HTTP_STATUS", async () => {
    await assert.rejects(client.post(`${appUrl}/relay`, {}, { retry: false }), (err: unknown) => {
      assert.ok(err instanceof GymHttpStatusError);
      assert.equal(err.status, 500);
      assert.equal(err.code, 'GYM_HTTP_STATUS');
      // the relay's 500 body names the inner failure, upstream code included, as text
      assert.match(String(err.body), /calling an inner server: .*GYM_CONFIG_MISSING_VALUE/);
      return true;
    });
    assert.ok(innerError instanceof GymHttpStatusError);
    assert.equal(innerError.code, 'GYM_HTTP_STATUS');
    assert.equal(innerError.upstreamCode, 'GYM_CONFIG_MISSING_VALUE');
    assert.equal(innerError.upstreamMessage, 'set policy_model.name');
  });
});

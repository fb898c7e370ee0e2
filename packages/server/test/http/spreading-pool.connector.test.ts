// The spreading pool makes one connector and hands it to every connection it opens (as undici's
// own pools do); a connector given in the client options is the one used.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildConnector } from 'undici';
import { SpreadingPool } from '../../src/http/spreading-pool.js';
import { sendJson, startTestServer } from './test-server.js';
import type { TestServer } from './test-server.js';

describe('SpreadingPool connector', () => {
  const servers: TestServer[] = [];
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('opens every socket through the connector given in the client options', async () => {
    let held: Array<() => void> = [];
    const server = await startTestServer((_req, res) => held.push(() => sendJson(res, 200, { ok: true })));
    servers.push(server);
    const real = buildConnector({});
    let connects = 0;
    const connect: buildConnector.connector = (options, callback) => {
      connects++;
      real(options, callback);
    };
    const pool = new SpreadingPool(server.url, { connections: 3, pipelining: 1, client: { keepAliveTimeout: 10_000, connect } });
    const answers = [1, 2, 3].map(() => pool.request({ path: '/', method: 'POST', body: '{}' }).then((res) => res.body.text()));
    for (let i = 0; i < 400 && held.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const release of held) release();
    held = [];
    assert.deepEqual(await Promise.all(answers), ['{"ok":true}', '{"ok":true}', '{"ok":true}']);
    assert.equal(connects, 3);
    assert.equal(server.totalSockets, 3);
    await pool.close();
  });
});

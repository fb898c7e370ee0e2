// The socket budget: pools sized from the open-file limit, and callers with more requests in flight
// than sockets pipelining them — which works only because the server serves pipelined requests
// concurrently (checked here against a real node:http server).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHttpClient } from '../../src/http/client.js';
import { defaultConnections, MAX_DEFAULT_CONNECTIONS, openFileLimit, socketsFor } from '../../src/http/connection-budget.js';
import { UPSTREAM_PIPELINING, upstreamConnections } from '../../src/server-process/upstream-connections.js';
import { startTestServer } from './test-server.js';

describe('the socket budget', () => {
  it('takes a quarter of the open-file limit per upstream, at most 4096', () => {
    assert.equal(defaultConnections(1024), 256);
    assert.equal(defaultConnections(20_000), MAX_DEFAULT_CONNECTIONS);
    assert.equal(defaultConnections(1_048_576), MAX_DEFAULT_CONNECTIONS);
    assert.equal(defaultConnections(undefined), MAX_DEFAULT_CONNECTIONS);
    assert.equal(defaultConnections(32), 16);
  });

  it('reads this process limit on Linux', () => {
    const limit = openFileLimit();
    if (process.platform === 'linux') assert.ok(limit === undefined || (Number.isInteger(limit) && limit > 0));
  });

  it('gives one socket per request in flight, then pipelines the rest evenly', () => {
    assert.deepEqual(socketsFor(64, 4096), { connections: 64, pipelining: 1 });
    assert.deepEqual(socketsFor(4096, 4096), { connections: 4096, pipelining: 1 });
    assert.deepEqual(socketsFor(16_384, 4096), { connections: 4096, pipelining: 4 });
    assert.deepEqual(socketsFor(16_385, 4096), { connections: 4096, pipelining: 5 });
    assert.deepEqual(socketsFor(0, 4096), { connections: 1, pipelining: 1 });
  });

  it("honours the original's global_aiohttp_connector_limit_per_host, divided among workers", () => {
    // a configured limit caps what reaches the upstream: beyond it requests wait, never pipelined
    assert.deepEqual(upstreamConnections({ global_aiohttp_connector_limit_per_host: 2048 }, 1), { connections: 2048, pipelining: 1 });
    assert.deepEqual(upstreamConnections({ global_aiohttp_connector_limit_per_host: 2048 }, 4), { connections: 512, pipelining: 1 });
    assert.deepEqual(upstreamConnections({}, 2), { connections: Math.floor(defaultConnections() / 2), pipelining: UPSTREAM_PIPELINING });
    assert.deepEqual(upstreamConnections({ global_aiohttp_connector_limit_per_host: 'lots' }, 1), { connections: defaultConnections(), pipelining: UPSTREAM_PIPELINING });
  });
});

describe('a pipelining client', () => {
  it('keeps more POSTs in flight at the server than it has sockets', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const waiting: Array<() => void> = [];
    const server = await startTestServer((_req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const answer = () => {
        inFlight--;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      };
      waiting.push(answer);
      // answer once all eight are being served at once: this proves the server saw them concurrently
      if (waiting.length === 8) for (const next of waiting.splice(0)) next();
    });
    const client = createHttpClient({ connections: 2, pipelining: 4, retry: { maxAttempts: 1 } });
    // if the requests are not pipelined the eighth never arrives: answer what came, so the test fails instead of hanging
    const unstick = setTimeout(() => {
      for (const next of waiting.splice(0)) next();
    }, 5000);
    try {
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => client.post<{ ok: boolean }>(`${server.url}/run`, { i })));
      assert.ok(answers.every((a) => a.body.ok));
      assert.equal(maxInFlight, 8);
      assert.ok(server.maxOpenSockets <= 2, `${server.maxOpenSockets} sockets`);
    } finally {
      clearTimeout(unstick);
      await client.close();
      await server.close();
    }
  });
});

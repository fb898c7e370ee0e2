// The spreading pool against a real node:http server that holds every request until told to answer:
// requests take an idle socket, then a new one while the budget allows, and are pipelined only when
// every socket is busy — never stacked on one socket while another could be opened (undici's Pool
// fills one connection's pipeline before it opens the next).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SpreadingPool } from '../../src/http/spreading-pool.js';

interface HeldServer {
  origin: string;
  sockets: Set<Socket>;
  /** Requests the server has seen, by socket. */
  seen: Map<Socket, number>;
  held: Array<ServerResponse>;
  releaseAll(): void;
  close(): Promise<void>;
}

async function startHeldServer(): Promise<HeldServer> {
  const sockets = new Set<Socket>();
  const seen = new Map<Socket, number>();
  const held: ServerResponse[] = [];
  let releasing = false;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.set(req.socket, (seen.get(req.socket) ?? 0) + 1);
    req.resume();
    req.on('end', () => (releasing ? res.end(req.url) : held.push(res)));
  });
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    sockets,
    seen,
    held,
    releaseAll() {
      releasing = true;
      for (const res of held.splice(0)) res.end('ok');
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await sleep(5);
  assert.ok(condition(), 'condition not reached');
}

const CLIENT = { keepAliveTimeout: 10_000, headersTimeout: 0, bodyTimeout: 0 };
const post = (pool: SpreadingPool, path: string) =>
  pool.request({ path, method: 'POST', body: '{}', idempotent: true, blocking: false }).then(async (res) => ({ status: res.statusCode, body: await res.body.text() }));

describe('SpreadingPool', () => {
  const servers: HeldServer[] = [];
  after(async () => {
    for (const server of servers) await server.close();
  });

  it('opens one socket per request while the budget allows, never stacking on a busy one', async () => {
    const server = await startHeldServer();
    servers.push(server);
    const pool = new SpreadingPool(server.origin, { connections: 8, pipelining: 4, client: CLIENT });
    const answers = Promise.all([1, 2, 3].map((i) => post(pool, `/${i}`)));
    await until(() => server.held.length === 3);
    assert.equal(server.sockets.size, 3);
    assert.deepEqual([...server.seen.values()], [1, 1, 1]);
    server.releaseAll();
    assert.deepEqual(
      (await answers).map((a) => a.status),
      [200, 200, 200],
    );
    await pool.close();
  });

  it('reuses an idle socket before opening another', async () => {
    const server = await startHeldServer();
    servers.push(server);
    server.releaseAll();
    const pool = new SpreadingPool(server.origin, { connections: 8, pipelining: 4, client: CLIENT });
    for (let i = 0; i < 5; i++) assert.equal((await post(pool, `/${i}`)).body, `/${i}`);
    assert.equal(server.sockets.size, 1);
    assert.equal(pool.connections, 1);
    await pool.close();
  });

  it('pipelines only once every socket is busy, spreading the extra requests evenly', async () => {
    const server = await startHeldServer();
    servers.push(server);
    const pool = new SpreadingPool(server.origin, { connections: 2, pipelining: 3, client: CLIENT });
    const answers = Promise.all([1, 2, 3, 4].map((i) => post(pool, `/${i}`)));
    // two sockets, each carrying two requests (node's server reads pipelined requests at once)
    await until(() => server.held.length === 4);
    assert.equal(server.sockets.size, 2);
    assert.equal(pool.connections, 2);
    assert.equal(pool.queued, 0);
    server.releaseAll();
    const done = await answers;
    assert.deepEqual(
      done.map((a) => a.status),
      [200, 200, 200, 200],
    );
    assert.deepEqual([...server.seen.values()].sort(), [2, 2]);
    await pool.close();
  });

  it('queues beyond sockets × pipelining, and a freed slot takes the oldest waiting request', async () => {
    const server = await startHeldServer();
    servers.push(server);
    const pool = new SpreadingPool(server.origin, { connections: 2, pipelining: 1, client: CLIENT });
    const order: string[] = [];
    const answers = Promise.all([1, 2, 3, 4, 5].map((i) => post(pool, `/${i}`).then((a) => (order.push(a.body), a))));
    await until(() => server.held.length === 2);
    assert.equal(pool.queued, 3);
    assert.equal(server.sockets.size, 2);
    server.releaseAll();
    await answers;
    assert.equal(server.sockets.size, 2);
    assert.deepEqual(order.slice(2), ['/3', '/4', '/5']);
    await pool.close();
  });

  it('closes once what is in flight and queued has been answered, and refuses new requests', async () => {
    const server = await startHeldServer();
    servers.push(server);
    const pool = new SpreadingPool(server.origin, { connections: 1, pipelining: 1, client: CLIENT });
    const answers = Promise.all([1, 2].map((i) => post(pool, `/${i}`)));
    await until(() => server.held.length === 1);
    const closed = pool.close();
    await assert.rejects(post(pool, '/late'), { name: 'ClientClosedError' });
    server.releaseAll();
    assert.deepEqual(
      (await answers).map((a) => a.status),
      [200, 200],
    );
    await closed;
  });

  it('fails queued requests when destroyed', async () => {
    const server = await startHeldServer();
    servers.push(server);
    const pool = new SpreadingPool(server.origin, { connections: 1, pipelining: 1, client: CLIENT });
    const first = post(pool, '/1');
    const second = post(pool, '/2');
    const outcomes = Promise.allSettled([first, second]);
    await until(() => server.held.length === 1);
    await pool.destroy();
    const [a, b] = await outcomes;
    assert.equal(a.status, 'rejected');
    assert.equal(b.status, 'rejected');
    assert.equal(b.reason.name, 'ClientDestroyedError');
  });
});

// collectResponse against a raw TCP server that writes exact response bytes (split where the test
// says): the answer's text, headers and status as undici's request() + body.text() gave them, and
// a signal that cuts the request and is let go of once the request is over. Where a test needs the
// client to have part of a body, it waits until that part reached the request's handler.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { Client, errors } from 'undici';
import type { Dispatcher } from 'undici';
import { collectResponse } from '../../src/http/collect-response.js';
import { SpreadingPool } from '../../src/http/spreading-pool.js';

/** What the raw server does with one request's socket once the request's head has arrived. */
type Answer = (socket: Socket) => unknown;

interface RawServer {
  origin: string;
  /** Resolves once the client has closed its side of a connection. */
  readonly closedByClient: Promise<void>;
  close(): Promise<void>;
}

async function startRawServer(answer: Answer): Promise<RawServer> {
  const sockets = new Set<Socket>();
  let clientClosed!: () => void;
  const closedByClient = new Promise<void>((resolve) => (clientClosed = resolve));
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let head = '';
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!answered && head.includes('\r\n\r\n')) {
        answered = true;
        void answer(socket);
      }
    });
    socket.on('end', () => clientClosed());
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    closedByClient,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** `client`, passing each request's handler on with a watch: `firstBodyPiece` resolves once a piece of a response body reached one. */
function watchBody(client: Client): { dispatcher: Dispatcher; firstBodyPiece: Promise<void> } {
  let seen!: () => void;
  const firstBodyPiece = new Promise<void>((resolve) => (seen = resolve));
  const dispatcher = client.compose(
    (dispatch) => (opts, handler: Dispatcher.DispatchHandler) =>
      dispatch(opts, {
        onConnect: (abort) => handler.onConnect?.(abort),
        onHeaders: (status, headers, resume, text) => handler.onHeaders?.(status, headers, resume, text) ?? true,
        onData: (chunk) => {
          seen();
          return handler.onData?.(chunk) ?? true;
        },
        onComplete: (trailers) => handler.onComplete?.(trailers),
        onError: (err) => handler.onError?.(err),
      }),
  );
  return { dispatcher, firstBodyPiece };
}

const utf8 = (text: string) => Buffer.from(text, 'utf8');
const GET = { path: '/x', method: 'GET' } as const;

describe('collectResponse', () => {
  const servers: RawServer[] = [];
  const clients: Client[] = [];
  after(async () => {
    await Promise.all(clients.map((c) => c.destroy()));
    await Promise.all(servers.map((s) => s.close()));
  });
  const start = async (answer: Answer) => {
    const server = await startRawServer(answer);
    servers.push(server);
    const client = new Client(server.origin);
    clients.push(client);
    return { server, client };
  };

  it('joins a body split inside a multi-byte character, and drops a leading byte-order mark', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), utf8('{"city":"Zürich ✓"}')]);
    const cut = body.indexOf(0xe2) + 1; // inside the three bytes of ✓
    let watched: ReturnType<typeof watchBody> | undefined;
    const { client } = await start(async (socket) => {
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`);
      socket.write(body.subarray(0, cut));
      // the rest only once the client has the first part: two pieces, cut where the test says
      await watched!.firstBodyPiece;
      socket.write(body.subarray(cut));
    });
    watched = watchBody(client);
    const res = await collectResponse(watched.dispatcher, GET, undefined);
    assert.equal(res.statusCode, 200);
    assert.equal(res.text, '{"city":"Zürich ✓"}');
    assert.equal(typeof res.headersAt, 'number');
  });

  it('gives lower-case header names, a repeated header as an array, and a __proto__ header as a plain field', async () => {
    const { client } = await start((socket) => {
      socket.write('HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nSet-Cookie: a=1; Path=/\r\nSet-Cookie: b=2\r\nSet-Cookie: c=3\r\n__proto__: x\r\nToString: y\r\nContent-Length: 2\r\n\r\nok');
    });
    const res = await collectResponse(client, GET, undefined);
    assert.equal(res.statusCode, 201);
    assert.equal(res.headers['content-type'], 'text/plain');
    assert.deepEqual(res.headers['set-cookie'], ['a=1; Path=/', 'b=2', 'c=3']);
    assert.equal(Object.getPrototypeOf(res.headers), Object.prototype);
    assert.ok(Object.hasOwn(res.headers, '__proto__'));
    assert.equal(Object.getOwnPropertyDescriptor(res.headers, '__proto__')?.value, 'x');
    assert.equal(res.headers['tostring'], 'y');
    assert.equal(res.text, 'ok');
  });

  it('finds every value of a header in any case without building the headers object', async () => {
    const { client } = await start((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nSET-COOKIE: a=1; Path=/\r\nConnection: keep-alive\r\nSet-cookie: b=2\r\nSet-Cookies: c=3\r\nContent-Length: 2\r\n\r\nok');
    });
    const res = await collectResponse(client, GET, undefined);
    assert.deepEqual(res.values('set-cookie'), ['a=1; Path=/', 'b=2']);
    assert.deepEqual(res.values('retry-after'), []);
    assert.deepEqual(res.headers['set-cookie'], ['a=1; Path=/', 'b=2']);
  });

  it('skips an informational 1xx answer and gives the final one', async () => {
    const { client } = await start((socket) => {
      socket.write('HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n');
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\ndone');
    });
    const res = await collectResponse(client, GET, undefined);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['link'], undefined);
    assert.equal(res.text, 'done');
  });

  it('gives an empty text for an empty body', async () => {
    const { client } = await start((socket) => socket.write('HTTP/1.1 204 No Content\r\n\r\n'));
    const res = await collectResponse(client, GET, undefined);
    assert.equal(res.statusCode, 204);
    assert.equal(res.text, '');
  });

  it("cuts a request whose signal aborts mid-body, rejecting with the signal's reason", async () => {
    const { server, client } = await start((socket) => {
      // headers and half the body, then nothing
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf.');
    });
    const controller = new AbortController();
    const { dispatcher, firstBodyPiece } = watchBody(client);
    const pending = collectResponse(dispatcher, GET, controller.signal);
    await firstBodyPiece;
    const reason = new Error('caller went away');
    controller.abort(reason);
    await assert.rejects(pending, (err: unknown) => err === reason);
    // the socket was given up, not left waiting for the rest of the body
    await server.closedByClient;
  });

  it('rejects at once for a signal that has already aborted', async () => {
    const { client } = await start((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
    const pending = collectResponse(client, GET, AbortSignal.abort());
    await assert.rejects(pending, (err: unknown) => (err as Error).name === 'AbortError');
  });

  it('stops listening to the signal once the request is over (answered or failed)', async () => {
    const { client } = await start((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'));
    const controller = new AbortController();
    const pending = collectResponse(client, GET, controller.signal);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
    await pending;
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);

    const refused = new Client('http://127.0.0.1:1');
    clients.push(refused);
    await assert.rejects(collectResponse(refused, GET, controller.signal));
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });

  it('rejects with the error of a dispatcher that refuses the request outright', async () => {
    const { server } = await start(() => undefined);
    const pool = new SpreadingPool(server.origin, { connections: 1, pipelining: 1, client: {} });
    await pool.close();
    await assert.rejects(collectResponse(pool, GET, undefined), errors.ClientClosedError);
  });
});

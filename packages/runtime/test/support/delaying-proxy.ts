// A TCP proxy on loopback that holds every chunk going to the upstream for `delayMs` (the answers
// come back undelayed), and records when it held the first chunk of each HTTP/1.1 request, by the
// span id of its `traceparent` header (the caller's CLIENT span).
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

export interface DelayingProxy {
  port: number;
  /**
   * `[arrived, written upstream]` of the first chunk of each request, in unix ms on the span clock
   * (`performance.timeOrigin + performance.now()`), by the parent span id of its `traceparent`
   * (`-` for a request without one).
   */
  readonly holds: ReadonlyMap<string, readonly [number, number]>;
  close(): Promise<void>;
}

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/;
const TRACEPARENT = /\r\ntraceparent: *[0-9a-f]{2}-[0-9a-f]{32}-([0-9a-f]{16})-/i;

/** Listens on 127.0.0.1 and forwards to `upstream()` (asked per connection: it may be known late). */
export async function startDelayingProxy(upstream: () => { host: string; port: number }, delayMs: number): Promise<DelayingProxy> {
  const holds = new Map<string, [number, number]>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const target = connect(upstream());
    for (const s of [client, target]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('close', () => target.destroy());
    target.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      const arrived = performance.now();
      const head = chunk.subarray(0, 4096).toString('latin1');
      const request = REQUEST_LINE.test(head) ? (TRACEPARENT.exec(head)?.[1] ?? '-') : null;
      // timers of one duration fire in the order they were set: the stream keeps its order
      setTimeout(() => {
        if (request !== null) holds.set(request, [performance.timeOrigin + arrived, performance.timeOrigin + performance.now()]);
        if (!target.destroyed) target.write(chunk);
      }, delayMs);
    });
    target.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    holds,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// A TCP proxy on loopback that holds every chunk going to the upstream for `delayMs` (the answers
// come back undelayed), and measures how long it held the first chunk of each HTTP/1.1 request.
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

export interface DelayingProxy {
  port: number;
  /** How long the first chunk of each request was held before it was written upstream, ms. */
  readonly holdsMs: readonly number[];
  close(): Promise<void>;
}

const REQUEST_LINE = /^[A-Z]+ \S+ HTTP\/1\.[01]\r\n/;

/** Listens on 127.0.0.1 and forwards to `upstream()` (asked per connection: it may be known late). */
export async function startDelayingProxy(upstream: () => { host: string; port: number }, delayMs: number): Promise<DelayingProxy> {
  const holdsMs: number[] = [];
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
      const startsRequest = REQUEST_LINE.test(chunk.subarray(0, 256).toString('latin1'));
      // timers of one duration fire in the order they were set: the stream keeps its order
      setTimeout(() => {
        if (startsRequest) holdsMs.push(performance.now() - arrived);
        if (!target.destroyed) target.write(chunk);
      }, delayMs);
    });
    target.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    port,
    holdsMs,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback port that is free right now, for tests and benchmarks that start servers of their own.
 * @module
 */
import { createServer } from 'node:net';

/** Binds port 0 on 127.0.0.1, reads the port the kernel chose, and releases it. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// Another program on a port gym was told to use: it answers every request with 200
// {"status":"ok"}, as a gym server's GET / does, and records what it was asked.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ImpostorServer {
  port: number;
  /** `<method> <url>` of every request it received, in order. */
  seen: string[];
  close(): Promise<void>;
}

export async function startImpostorServer(): Promise<ImpostorServer> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.setHeader('content-type', 'application/json');
    res.end('{"status":"ok"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A node:http server on 127.0.0.1:0 for client tests: counts requests and open sockets. */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface TestServer {
  url: string;
  /** Requests seen so far. */
  readonly requests: number;
  /** Sockets ever opened, and the most open at once. */
  readonly totalSockets: number;
  readonly maxOpenSockets: number;
  close(): Promise<void>;
}

export type TestHandler = (req: IncomingMessage, res: ServerResponse, body: string, n: number) => void;

export async function startTestServer(handler: TestHandler): Promise<TestServer> {
  const sockets = new Set<Socket>();
  let requests = 0;
  let totalSockets = 0;
  let maxOpenSockets = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8'), ++requests));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    totalSockets++;
    maxOpenSockets = Math.max(maxOpenSockets, sockets.size);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return requests;
    },
    get totalSockets() {
      return totalSockets;
    },
    get maxOpenSockets() {
      return maxOpenSockets;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Test servers started on demand (`start`), all closed by `closeAll` (call it in `after`). */
export function testServers(): { start: (handler: TestHandler) => Promise<TestServer>; closeAll: () => Promise<void> } {
  const servers: TestServer[] = [];
  return {
    start: async (handler) => {
      const server = await startTestServer(handler);
      servers.push(server);
      return server;
    },
    closeAll: async () => {
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

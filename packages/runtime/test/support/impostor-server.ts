// Another program on a port gym was told to use: it answers every request with 200
// {"status":"ok"}, as a gym server's GET / does, and records what it was asked.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { freePort, runGym } from './gym-process.js';

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

/**
 * Runs `gym <args> -o <dir>/out.jsonl --log-dir <dir>/logs` with the configured port of server
 * `name` (a resources server) held by an impostor, and asserts what a taken port must give: exit
 * 2 with `GYM_SERVER_PORT_IN_USE`'s message naming the server and port, only readiness probes at
 * the impostor, and no rollout collected. Resolves with gym's stderr for further checks.
 */
export async function runOnTakenPort(args: readonly string[], name: string, options: { env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  const foreign = await startImpostorServer();
  const { port, seen } = foreign;
  const dir = mkdtempSync(join(tmpdir(), 'gym-taken-port-'));
  try {
    const run = await runGym([...args, '-o', join(dir, 'out.jsonl'), '--log-dir', join(dir, 'logs'), `++${name}.resources_servers.${name}.port=${port}`, `++head_server.port=${await freePort()}`], {
      cwd: dir,
      ...(options.env === undefined ? {} : { env: options.env }),
    });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, new RegExp(`Server '${name}' could not listen on 127\\.0\\.0\\.1:${port}: the port is in use by another program`));
    assert.deepEqual(
      seen.filter((r) => r !== 'GET /'),
      [],
      'only readiness probes reached the other program',
    );
    assert.ok(!readdirSync(dir).includes('out.jsonl'), 'no rollout was collected');
    return run.stderr;
  } finally {
    await foreign.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Who listens on a port, read from /proc: the readiness proof of servers that cannot echo gym's
// start token. Real listening sockets in real processes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { listeningInodes, portOwner } from '../../src/orchestrator/port-owner.js';
import { procAvailable } from '../../src/orchestrator/proc-memory.js';
import { freePort } from '../support/gym-process.js';

const linux = procAvailable();

/** A child `node` listening on a free port; resolves with it and the port. */
async function listeningChild(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-e', "const s = require('node:net').createServer(); s.listen(0, '127.0.0.1', () => console.log(s.address().port));"], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  return { child, port: Number(chunk.toString().trim()) };
}

describe('portOwner', { skip: !linux && 'needs Linux /proc' }, () => {
  let listener: { child: ChildProcess; port: number };
  let idle: ChildProcess;
  let own: Server;
  before(async () => {
    listener = await listeningChild();
    idle = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1e6)'], { stdio: 'ignore' });
    own = createServer();
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
  });
  after(() => {
    listener.child.kill('SIGKILL');
    idle.kill('SIGKILL');
    own.close();
  });

  it("'ours' when the process itself holds the listening socket", () => {
    assert.equal(portOwner(listener.child.pid!, listener.port), 'ours');
    assert.equal(portOwner(process.pid, (own.address() as AddressInfo).port), 'ours');
  });

  it("'ours' when a descendant of the root holds it (uv run starts the interpreter as its child)", () => {
    assert.equal(portOwner(process.pid, listener.port), 'ours');
  });

  it("'other' when another process listens there, or nobody does", async () => {
    assert.equal(portOwner(idle.pid!, listener.port), 'other');
    assert.equal(portOwner(listener.child.pid!, (own.address() as AddressInfo).port), 'other');
    const unused = await freePort();
    assert.equal(listeningInodes(unused)?.size, 0);
    assert.equal(portOwner(process.pid, unused), 'other');
  });

  it("'unknown' without /proc (the caller then takes any answer)", () => {
    assert.equal(portOwner(process.pid, listener.port, '/nonexistent-proc'), 'unknown');
  });
});

// Who listens on a port, read from /proc: the readiness proof of servers that cannot echo gym's
// start token. Real listening sockets in real processes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { addressHex, listeningAddressesOf, listeningSockets, portOwner, socketsAnswering } from '../../src/orchestrator/port-owner.js';
import { procAvailable } from '../../src/orchestrator/proc-memory.js';
import { freePort } from '../support/gym-process.js';

const linux = procAvailable();

/** A child `node` listening on a free port; resolves with it and the port. */
async function listeningChild(host = '127.0.0.1', port = 0): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['-e', `const s = require('node:net').createServer(); s.listen(${port}, '${host}', () => console.log(s.address().port));`], {
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

  it("'other' when the tree listens on the port of another address and a foreign program holds the configured one", async () => {
    // the review's reproduction: the server binds 127.0.0.2:P while another program holds 127.0.0.1:P
    const port = (own.address() as AddressInfo).port;
    const elsewhere = await listeningChild('127.0.0.2', port);
    try {
      assert.equal(await portOwner(elsewhere.child.pid!, '127.0.0.1', port), 'other');
      assert.equal(await portOwner(elsewhere.child.pid!, '127.0.0.2', port), 'ours');
      assert.equal(await portOwner(process.pid, '127.0.0.1', port), 'ours');
      assert.deepEqual(listeningAddressesOf(elsewhere.child.pid!), [`127.0.0.2:${port}`]);
    } finally {
      elsewhere.child.kill('SIGKILL');
    }
  });

  it("'ours' when the process itself holds the listening socket", async () => {
    assert.equal(await portOwner(listener.child.pid!, '127.0.0.1', listener.port), 'ours');
    assert.equal(await portOwner(process.pid, '127.0.0.1', (own.address() as AddressInfo).port), 'ours');
  });

  it("'ours' when a descendant of the root holds it (uv run starts the interpreter as its child)", async () => {
    assert.equal(await portOwner(process.pid, '127.0.0.1', listener.port), 'ours');
  });

  it("'other' when another process listens there, or nobody does", async () => {
    assert.equal(await portOwner(idle.pid!, '127.0.0.1', listener.port), 'other');
    assert.equal(await portOwner(listener.child.pid!, '127.0.0.1', (own.address() as AddressInfo).port), 'other');
    const unused = await freePort();
    assert.deepEqual(
      listeningSockets()?.filter((s) => s.port === unused),
      [],
    );
    assert.equal(await portOwner(process.pid, '127.0.0.1', unused), 'other');
  });

  it("'unknown' without /proc (the caller then takes any answer)", async () => {
    assert.equal(await portOwner(process.pid, '127.0.0.1', listener.port, '/nonexistent-proc'), 'unknown');
  });
});

describe('socketsAnswering', () => {
  const sockets = [
    { inode: 'any4', address: addressHex('0.0.0.0')!, port: 80 },
    { inode: 'lo', address: addressHex('127.0.0.1')!, port: 80 },
    { inode: 'any6', address: addressHex('::')!, port: 81 },
    { inode: 'mapped', address: addressHex('::ffff:127.0.0.3')!, port: 82 },
  ];
  it('prefers the bind to the exact address, as the kernel does, then the wildcard', () => {
    assert.deepEqual(
      socketsAnswering(sockets, '127.0.0.1', 80).map((s) => s.inode),
      ['lo'],
    );
    assert.deepEqual(
      socketsAnswering(sockets, '127.0.0.2', 80).map((s) => s.inode),
      ['any4'],
    );
    assert.deepEqual(
      socketsAnswering(sockets, '127.0.0.2', 81).map((s) => s.inode),
      ['any6'],
    );
    assert.deepEqual(
      socketsAnswering(sockets, '::1', 81).map((s) => s.inode),
      ['any6'],
    );
    assert.deepEqual(
      socketsAnswering(sockets, '127.0.0.3', 82).map((s) => s.inode),
      ['mapped'],
    );
    assert.deepEqual(socketsAnswering(sockets, '127.0.0.1', 83), []);
  });
  it('reads addresses as /proc prints them: network byte order, IPv6 fully expanded', () => {
    assert.equal(addressHex('127.0.0.1'), '7f000001');
    assert.equal(addressHex('::1'), `${'0'.repeat(31)}1`);
    assert.equal(addressHex('fe80::1:2'), `fe80${'0'.repeat(20)}00010002`);
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { assignHostsAndPorts, findFreePort, isPortFree, loadConfig } from '../../src/config/index.js';
import type { ServerBlock } from '../../src/config/index.js';
import { modelBlock, tempTree } from './support.js';
import type { TempTree } from './support.js';

const block = (instanceName: string, config: Record<string, unknown> = {}): ServerBlock => ({
  instanceName,
  serverType: 'responses_api_models',
  implementation: 'simulated_model',
  config: { entrypoint: 'app.ts', ...config },
});

const listeners: Server[] = [];
const trees: TempTree[] = [];
after(async () => {
  trees.forEach((t) => t.cleanup());
  await Promise.all(listeners.map((s) => new Promise((r) => s.close(r))));
});

/** Occupies an OS-chosen port on 127.0.0.1 for the rest of the file. */
async function occupiedPort(): Promise<number> {
  const server = createServer();
  listeners.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

describe('port probing', () => {
  it('sees a bound port as busy', async () => {
    const port = await occupiedPort();
    assert.equal(await isPortFree(port, '127.0.0.1'), false);
  });

  it('skips busy and excluded ports in a range', async () => {
    const busy = await occupiedPort();
    // A 3-port window around the busy one, with one excluded: only one candidate is left.
    const low = busy - 1;
    const found = await findFreePort('127.0.0.1', low, busy + 1, new Set([busy + 1]));
    assert.equal(found, low);
  });

  it('fails with GYM_CONFIG_NO_FREE_PORT when the range is exhausted', async () => {
    const busy = await occupiedPort();
    await assert.rejects(findFreePort('127.0.0.1', busy, busy, new Set()), (err: Error & { code: string }) => err.code === 'GYM_CONFIG_NO_FREE_PORT');
  });
});

describe('assignHostsAndPorts', () => {
  const base = { defaultHost: '127.0.0.1', rangeLow: 10001, rangeHigh: 20000, disallowed: [11000] };

  it('defaults the host to 127.0.0.1 and keeps an explicit host', async () => {
    const out = await assignHostsAndPorts([block('a'), block('b', { host: '0.0.0.0' })], base);
    assert.deepEqual(
      out.map((s) => s.host),
      ['127.0.0.1', '0.0.0.0'],
    );
    assert.equal(out[0]!.config['host'], '127.0.0.1');
  });

  it('never gives two servers the same port, even in a range barely large enough', async () => {
    const busy = await occupiedPort();
    const low = busy + 1;
    const blocks = [block('a'), block('b'), block('c'), block('d', { port: low + 3 })];
    const out = await assignHostsAndPorts(blocks, { ...base, rangeLow: low, rangeHigh: low + 3, disallowed: [] });
    const ports = out.map((s) => s.port);
    assert.equal(new Set(ports).size, 4);
    for (const p of ports) assert.ok(p >= low && p <= low + 3);
    assert.equal(out[3]!.port, low + 3);
  });

  it('never draws the head server port or a disallowed port', async () => {
    // the range's last port is one just bound and released (free, where a neighbour of a busy port
    // may be taken by another process on a loaded machine); the two before it are disallowed
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const last = (server.address() as { port: number }).port;
    await new Promise<void>((r) => server.close(() => r()));
    const out = await assignHostsAndPorts([block('a')], { ...base, rangeLow: last - 2, rangeHigh: last, disallowed: [last - 2, last - 1] });
    assert.equal(out[0]!.port, last);
  });

  it('rejects two instances with the same explicit host and port', async () => {
    await assert.rejects(assignHostsAndPorts([block('a', { port: 12345 }), block('b', { port: 12345 })], base), /'b' sets port 12345 on 127\.0\.0\.1, but instance 'a' also uses it/);
  });

  it('rejects an explicit port equal to the head server port', async () => {
    await assert.rejects(assignHostsAndPorts([block('a', { port: 11000 })], base), /reserved \(head server or disallowed_ports\)/);
  });

  it('leaves unset ports at -1 without probing when probe is false', async () => {
    const out = await assignHostsAndPorts([block('a')], { ...base, probe: false });
    assert.equal(out[0]!.port, -1);
  });
});

describe('loadConfig placement', () => {
  it('fills hosts, ports and the head server into the tree', async () => {
    const t = tempTree({ 'a.yaml': `${modelBlock('m1')}${modelBlock('m2')}${modelBlock('m3', '      port: 15001\n')}` });
    trees.push(t);
    const c = await loadConfig({ rootDir: t.dir, selectors: { configs: ['a.yaml'] }, env: {} });
    assert.deepEqual(c.head, { host: '127.0.0.1', port: 11000 });
    assert.deepEqual(c.raw['head_server'], { host: '127.0.0.1', port: 11000 });
    assert.equal(new Set(c.servers.map((s) => s.port)).size, 3);
    assert.equal(c.servers[2]!.port, 15001);
    for (const s of c.servers) {
      const inner = ((c.raw[s.instanceName] as Record<string, unknown>)['responses_api_models'] as Record<string, Record<string, unknown>>)['simulated_model']!;
      assert.equal(inner['port'], s.port);
      assert.equal(inner['host'], '127.0.0.1');
      assert.ok(s.port === 15001 || (s.port >= 10001 && s.port <= 20000 && s.port !== 11000));
    }
  });

  it('honours default_host, head_server and the port range keys', async () => {
    const t = tempTree({
      'a.yaml': `default_host: 0.0.0.0\nhead_server: {port: '12000'}\nport_range_low: 13000\nport_range_high: 13100\n${modelBlock('m1')}`,
    });
    trees.push(t);
    const c = await loadConfig({ rootDir: t.dir, selectors: { configs: ['a.yaml'] }, env: {} });
    assert.deepEqual(c.head, { host: '0.0.0.0', port: 12000 });
    assert.equal(c.servers[0]!.host, '0.0.0.0');
    assert.ok(c.servers[0]!.port >= 13000 && c.servers[0]!.port <= 13100);
  });

  it('rejects a head_server port that is not a port', async () => {
    const t = tempTree({ 'a.yaml': 'head_server: {port: eleven}\n' });
    trees.push(t);
    await assert.rejects(loadConfig({ rootDir: t.dir, selectors: { configs: ['a.yaml'] }, env: {} }), /head_server\.port: /);
  });
});

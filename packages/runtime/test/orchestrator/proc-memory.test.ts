import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processTree, procAvailable, readHostMemory, readProcessPss, readProcessRss, readTreeMemory, readTreePss } from '../../src/orchestrator/proc-memory.js';
import { startProcessTree } from './process-tree.js';
import type { ProcessTree } from './process-tree.js';

const MIB = 1024 * 1024;

describe('proc-memory on this machine', { skip: procAvailable() ? false : 'no /proc (not Linux)' }, () => {
  let tree: ProcessTree;
  before(async () => {
    tree = await startProcessTree(48, 24);
  });
  after(() => tree?.stop());

  it('finds a process and its child, and sums their RSS and PSS', async () => {
    assert.deepEqual(processTree(tree.pid), [tree.pid, tree.childPid]);
    const memory = readTreeMemory(tree.pid)!;
    assert.deepEqual(memory.pids, [tree.pid, tree.childPid]);
    assert.ok(memory.rssBytes >= (48 + 24) * MIB, `rss ${memory.rssBytes}`);
    const childRss = readProcessRss(tree.childPid)!;
    assert.ok(childRss >= 24 * MIB && childRss < memory.rssBytes);
    const pss = await readTreePss(memory.pids);
    assert.ok(pss !== undefined && pss > 0 && pss <= memory.rssBytes, `pss ${pss}`);
    assert.ok((await readProcessPss(tree.childPid))! < pss);
  });

  it('leaves out a child that ended', async () => {
    await tree.killChild();
    assert.deepEqual(processTree(tree.pid), [tree.pid]);
    assert.deepEqual(readTreeMemory(tree.pid)!.pids, [tree.pid]);
  });

  it('answers nothing, without throwing, for a process that is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    assert.deepEqual(processTree(gone), []);
    assert.equal(readTreeMemory(gone), undefined);
    assert.equal(readProcessRss(gone), undefined);
    assert.equal(await readProcessPss(gone), undefined);
    assert.equal(await readTreePss([process.pid, gone]), undefined);
  });

  it('reads the host total and available memory from /proc/meminfo', () => {
    const meminfo = readFileSync('/proc/meminfo', 'utf8');
    const host = readHostMemory()!;
    assert.equal(host.totalBytes, Number(/^MemTotal:\s+(\d+) kB$/m.exec(meminfo)![1]) * 1024);
    assert.ok(host.availableBytes > 0 && host.availableBytes <= host.totalBytes);
  });
});

describe('proc-memory fallbacks (a /proc laid out as older kernels and other users have it)', () => {
  const root = mkdtempSync(join(tmpdir(), 'gym-proc-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  // pid 100 (no task/*/children files: no CONFIG_PROC_CHILDREN) → 101 → 102; 103 is unrelated
  write('100/task/100/stat', '');
  write('100/stat', '100 (node server) S 1 100 100 0 -1');
  write('100/status', 'Name:\tnode\nVmRSS:\t    1000 kB\n'); // no smaps_rollup: not ours to read
  write('101/task/101/stat', '');
  write('101/stat', '101 (a (b) c) S 100 100 100 0 -1');
  write('101/status', 'Name:\ta (b) c\nVmRSS:\t     200 kB\n');
  write('101/smaps_rollup', '00400000-7fff [rollup]\nRss:                 200 kB\nPss:                 150 kB\n');
  write('102/task/102/stat', '');
  write('102/stat', '102 (sh) Z 101 100 100 0 -1'); // a zombie: no memory
  write('102/status', 'Name:\tsh\nState:\tZ (zombie)\n');
  write('103/task/103/stat', '');
  write('103/stat', '103 (other) S 1 103 103 0 -1');
  write('103/status', 'VmRSS:\t 5000 kB\n');
  write('meminfo', 'MemTotal:       16000 kB\nMemFree:         1000 kB\nMemAvailable:    4000 kB\n');

  it('walks the tree through parent pids, leaves the zombie out, and has PSS only when every process has one', async () => {
    assert.deepEqual(processTree(100, root).sort(), [100, 101, 102]);
    assert.deepEqual(readTreeMemory(100, root), { pids: [100, 101], rssBytes: 1200 * 1024 });
    assert.equal(await readTreePss([100, 101], root), undefined);
    assert.equal(await readTreePss([101], root), 150 * 1024);
  });

  it('reads the host from meminfo, and nothing without it', () => {
    assert.deepEqual(readHostMemory(root), { totalBytes: 16000 * 1024, availableBytes: 4000 * 1024 });
    assert.equal(readHostMemory(join(root, 'missing')), undefined);
    assert.equal(procAvailable(join(root, 'missing')), false);
  });
});

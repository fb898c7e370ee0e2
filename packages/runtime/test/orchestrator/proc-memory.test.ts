import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processTree, procAvailable, readHostMemory, readProcessMemory, readTreeMemory } from '../../src/orchestrator/proc-memory.js';
import { startProcessTree } from './process-tree.js';
import type { ProcessTree } from './process-tree.js';

const MIB = 1024 * 1024;

describe('proc-memory on this machine', { skip: procAvailable() ? false : 'no /proc (not Linux)' }, () => {
  let tree: ProcessTree;
  before(async () => {
    tree = await startProcessTree(48, 24);
  });
  after(() => tree?.stop());

  it('finds a process and its child, and sums their RSS and PSS', () => {
    assert.deepEqual(processTree(tree.pid), [tree.pid, tree.childPid]);
    const memory = readTreeMemory(tree.pid)!;
    assert.equal(memory.processes, 2);
    assert.ok(memory.rssBytes >= (48 + 24) * MIB, `rss ${memory.rssBytes}`);
    assert.ok(memory.pssBytes !== undefined && memory.pssBytes > 0 && memory.pssBytes <= memory.rssBytes);
    const child = readProcessMemory(tree.childPid)!;
    assert.ok(child.rssBytes >= 24 * MIB && child.rssBytes < memory.rssBytes);
  });

  it('leaves out a child that ended', async () => {
    await tree.killChild();
    assert.deepEqual(processTree(tree.pid), [tree.pid]);
    assert.equal(readTreeMemory(tree.pid)!.processes, 1);
  });

  it('answers nothing, without throwing, for a process that is gone', () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    assert.deepEqual(processTree(gone), []);
    assert.equal(readTreeMemory(gone), undefined);
    assert.equal(readProcessMemory(gone), undefined);
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
  write('101/smaps_rollup', '00400000-7fff [rollup]\nRss:                 200 kB\nPss:                 150 kB\n');
  write('102/task/102/stat', '');
  write('102/stat', '102 (sh) Z 101 100 100 0 -1'); // a zombie: no memory
  write('102/status', 'Name:\tsh\nState:\tZ (zombie)\n');
  write('103/task/103/stat', '');
  write('103/stat', '103 (other) S 1 103 103 0 -1');
  write('103/status', 'VmRSS:\t 5000 kB\n');
  write('meminfo', 'MemTotal:       16000 kB\nMemFree:         1000 kB\nMemAvailable:    4000 kB\n');

  it('walks the tree through parent pids, and reports RSS without PSS when one process has none', () => {
    assert.deepEqual(processTree(100, root).sort(), [100, 101, 102]);
    assert.deepEqual(readTreeMemory(100, root), { processes: 2, rssBytes: 1200 * 1024, pssBytes: undefined });
    assert.deepEqual(readTreeMemory(101, root), { processes: 1, rssBytes: 200 * 1024, pssBytes: 150 * 1024 });
  });

  it('reads the host from meminfo, and nothing without it', () => {
    assert.deepEqual(readHostMemory(root), { totalBytes: 16000 * 1024, availableBytes: 4000 * 1024 });
    assert.equal(readHostMemory(join(root, 'missing')), undefined);
    assert.equal(procAvailable(join(root, 'missing')), false);
  });
});

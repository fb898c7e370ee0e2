// The spool behind `show`'s list and --failed on a large run keeps texts and their sort keys on
// disk as they come, not in memory: keys alone (empty texts, as --failed spools its traces' order)
// reach the disk as they add up, and read back in the order DuckDB sorts them.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { SortedSpool } from '../src/commands/sorted-spool.js';

const dir = mkdtempSync(join(tmpdir(), 'gym-spool-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('SortedSpool', () => {
  it('writes keys of empty texts to disk as they add up, and gives the texts back in the sorted order', async () => {
    const keysOnly = new SortedSpool(dir, 'keys-only', ['n']);
    for (let i = 0; i < 200_000; i++) keysOnly.add([i], '');
    // without calling table() or texts(): most of the keys are on disk already
    assert.ok(statSync(join(dir, 'keys-only.csv')).size > 1_000_000, 'keys held in memory');
    keysOnly.close();

    const spool = new SortedSpool(dir, 'texts', ['k']);
    ['c', 'a', 'b'].forEach((t, i) => spool.add([[3, 1, 2][i]!], t));
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    const got: string[] = [];
    for await (const t of spool.texts(c, `SELECT off, len FROM ${spool.table()} ORDER BY k`)) got.push(t);
    assert.deepEqual(got, ['a', 'b', 'c']);
    spool.close();
    c.closeSync();
    instance.closeSync();
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aggregateShards, expandInputGlobs } from '../../src/rollouts/shards.js';
import { readRows } from './test-agent.js';

const dir = mkdtempSync(join(tmpdir(), 'gym-shards-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const row = (t: number, r: number, reward: number) => JSON.stringify({ _ng_task_index: t, _ng_rollout_index: r, agent_ref: { name: 'ag' }, reward });
mkdirSync(join(dir, 'shards'));
writeFileSync(join(dir, 'shards/run-a.jsonl'), `${row(0, 0, 1)}\n${row(0, 1, 0)}\n`);
writeFileSync(join(dir, 'shards/run-b.jsonl'), `${row(1, 0, 1)}\n${row(1, 1, 1)}\n`);
writeFileSync(join(dir, 'shards/run-a_failures.jsonl'), `${row(0, 2, 0)}\n`);

describe('gym eval aggregate', () => {
  it('expands globs in any segment and comma lists, sorted', () => {
    assert.deepEqual(expandInputGlobs(['sha*/run-?.jsonl'], dir), [join(dir, 'shards/run-a.jsonl'), join(dir, 'shards/run-b.jsonl')]);
    assert.deepEqual(expandInputGlobs(['shards/run-b.jsonl,shards/run-[a].jsonl'], dir), [join(dir, 'shards/run-a.jsonl'), join(dir, 'shards/run-b.jsonl')]);
  });

  it('merges shards into the output and recomputes metrics over their union, skipping sidecars', async () => {
    const out = join(dir, 'all.jsonl');
    const result = await aggregateShards([join(dir, 'shards/*.jsonl')], out);
    assert.equal(result.files.length, 2);
    assert.equal(readRows(out).length, 4);
    const metrics = JSON.parse(readFileSync(join(dir, 'all_aggregate_metrics.json'), 'utf8')) as { agent_metrics: Record<string, number> }[];
    assert.equal(metrics[0]!.agent_metrics['mean/reward'], 0.75);
    assert.equal(metrics[0]!.agent_metrics['pass@1/accuracy'], 75);
  });

  it('fails with a user error when nothing matches', async () => {
    await assert.rejects(aggregateShards([join(dir, 'none/*.jsonl')], join(dir, 'x.jsonl')), { code: 'GYM_ROLLOUT_NO_SHARDS' });
  });
});

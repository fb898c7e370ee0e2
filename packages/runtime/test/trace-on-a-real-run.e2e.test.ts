// `gym trace` on files written by a real collection run: the README's main job, end to end.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleTelemetryRun, EXAMPLE_EVAL_RUN, runGym } from './support/gym-process.js';
import { telemetryEnv } from './support/rollout-tree.js';

describe('gym trace on a real gym eval run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-trace-run-'));
  const logDir = join(dir, 'logs');
  const output = join(dir, 'rollouts.jsonl');
  let run: { code: number | null; stdout: string; stderr: string };
  before(async () => {
    run = await runGym([...EXAMPLE_EVAL_RUN, '--num-repeats', '2', ...(await consoleTelemetryRun(output, logDir, 'per_rollout'))], { env: telemetryEnv({}) });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('collects every rollout with its trace id and ends with the slowest rollout and a report', () => {
    assert.equal(run.code, 0, run.stderr);
    const rows = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { trace_id: string; _ng_task_index: number; _ng_rollout_index: number });
    assert.equal(rows.length, 10);
    assert.equal(new Set(rows.map((r) => r.trace_id)).size, 10, 'per_rollout: one trace per rollout');
    assert.match(run.stdout, /slowest rollout \(gym trace show --slowest 1\):\nrollout \d-\d {2}trace [0-9a-f]{32}/);
    assert.match(run.stdout, /gym\.verify +example_single_tool_call .*reward 1/);
    assert.ok(existsSync(join(logDir, 'report.html')));
  });

  it('why: splits each rollout wall time into categories that add up', async () => {
    const why = await runGym(['trace', 'why', '1-1', logDir, '--json']);
    assert.equal(why.code, 0, why.stderr);
    const result = JSON.parse(why.stdout) as { wallMs: number; categories: Record<string, number> };
    const sum = Object.values(result.categories).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - result.wallMs) < 0.01, `${sum} vs ${result.wallMs}`);
    // the whole answer in the message: a category at 0 on a loaded machine must say which, and what took its time
    for (const category of ['model', 'verify', 'tools']) assert.ok(result.categories[category]! > 0, `${category} is 0 in ${why.stdout}`);
  });

  it('stats: counts every span name of the run', async () => {
    const stats = await runGym(['trace', 'stats', logDir, '--json']);
    assert.equal(stats.code, 0, stats.stderr);
    const rows = (JSON.parse(stats.stdout) as { groups: Array<{ key: string; count: number }> }).groups;
    const count = (name: string) => rows.find((r) => r.key === name)?.count;
    assert.equal(count('gym.rollout'), 10);
    assert.equal(count('gym.model.responses'), 20);
    assert.equal(count('gym.verify'), 10);
    // per rollout 5 agent calls and the collector's /run; then /aggregate_metrics, which the agent forwards
    assert.equal(count('HTTP POST'), 10 * 6 + 2);
  });

  it('anomalies: finds none in a clean run', async () => {
    const anomalies = await runGym(['trace', 'anomalies', logDir, '--json']);
    assert.equal(anomalies.code, 0, anomalies.stderr);
    assert.equal((JSON.parse(anomalies.stdout) as { total: number }).total, 0);
  });
});

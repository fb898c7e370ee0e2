// The end-of-run summary lists every file the run wrote, relative to the working directory.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultOutputPath } from '../../src/cli/commands/eval-run-settings.js';
import { createRunLogDir } from '../../src/orchestrator/log-dir.js';
import { rolloutPaths } from '../../src/rollouts/rollout-files.js';
import { execFileSync } from 'node:child_process';
import { formatSummary, keyMetricsBlocks } from '../../src/rollouts/summary.js';
import type { AgentAggregateMetrics } from '../../../server/src/reward-stats/aggregate-metrics.js';
import type { CollectResult } from '../../src/rollouts/collect.js';

describe('formatSummary', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'gym-summary-'));
  after(() => rmSync(cwd, { recursive: true, force: true }));

  it('names the rollouts, failures, materialized inputs, metrics and log files, all of one time stamp', () => {
    const startedAt = new Date('2026-01-02T03:04:05.678Z');
    const logDir = createRunLogDir(cwd, startedAt);
    const paths = rolloutPaths(join(cwd, defaultOutputPath('agent', startedAt)));
    mkdirSync(join(cwd, 'results'));
    for (const file of [paths.output, paths.failures, paths.materializedInputs, paths.aggregateMetrics]) writeFileSync(file, '');
    const result: CollectResult = {
      paths,
      total: 4,
      plan: { pending: 4, succeeded: 0, terminal: 0, exhausted: 0 },
      succeeded: 3,
      failed: 1,
      notPersisted: 0,
      abandoned: 0,
      unwritten: 0,
      interrupted: false,
      incomplete: 1,
      metrics: [],
      losses: { output: { records: 0 }, failures: { records: 0 } },
    };
    const lines = formatSummary(result, { cwd, logDir });
    const files = lines.slice(lines.indexOf('files:') + 1);
    assert.deepEqual(files, [
      '  rollouts  results/agent_20260102T030405Z.jsonl',
      '  failures  results/agent_20260102T030405Z_failures.jsonl (1 failed this run)',
      '  inputs    results/agent_20260102T030405Z_materialized_inputs.jsonl (the rows as run, for --resume)',
      '  metrics   results/agent_20260102T030405Z_aggregate_metrics.json',
      '  logs      .gym/logs/20260102T030405Z (one <server>.log each)',
    ]);
  });

  it('counts rollouts abandoned by a second Ctrl-C as the progress bar does', () => {
    const paths = rolloutPaths(join(cwd, 'results', 'stopped.jsonl'));
    const result: CollectResult = {
      paths,
      total: 60,
      plan: { pending: 60, succeeded: 0, terminal: 0, exhausted: 0 },
      succeeded: 8,
      failed: 0,
      notPersisted: 0,
      abandoned: 52,
      unwritten: 0,
      interrupted: true,
      incomplete: 52,
      losses: { output: { records: 0 }, failures: { records: 0 } },
    };
    assert.equal(formatSummary(result)[0], 'rollouts: 8 succeeded, 0 failed, 52 abandoned this run; 8/60 complete');
  });

  it("prints the original's key-metrics block per agent, as Python's print and json.dumps(indent=4) write it, first in the summary", () => {
    const keyMetrics = { 'mean/reward': 1, 'pass@1[avg-of-4]/accuracy': 66.66666666666667, 'majority@4/accuracy': 0, 'pass@4/no_answer': 1e-5, 'réponse/mean': 0.5 };
    const metrics = [{ agent_ref: { name: 'mcqa_simple_agent' }, agent_metrics: {}, key_metrics: keyMetrics, group_level_metrics: [] }] as AgentAggregateMetrics[];
    const python = execFileSync(
      'python3',
      ['-c', 'import json,sys; km={k: float(v) for k, v in json.load(sys.stdin).items()}; print(f"\\nKey metrics for mcqa_simple_agent:\\n" + json.dumps(km, indent=4))'],
      {
        input: JSON.stringify(keyMetrics),
      },
    ).toString();
    assert.equal(`${keyMetricsBlocks(metrics).join('\n')}\n`, python);
    const result = {
      paths: rolloutPaths(join(cwd, 'none.jsonl')),
      total: 1,
      plan: { pending: 1, succeeded: 0, terminal: 0, exhausted: 0 },
      succeeded: 1,
      failed: 0,
      notPersisted: 0,
      abandoned: 0,
      interrupted: false,
      unwritten: 0,
      incomplete: 0,
      metrics,
      losses: { output: { records: 0 }, failures: { records: 0 } },
    } as CollectResult;
    assert.deepEqual(formatSummary(result).slice(0, 3), ['', 'Key metrics for mcqa_simple_agent:', '{']);
  });
});

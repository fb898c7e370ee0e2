/**
 * The few terminal lines that close a run: counts, files, and the headline metrics per agent.
 * @module
 */
import { existsSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { AgentAggregateMetrics } from '@gym/server/internal/reward-stats/aggregate-metrics.js';
import type { CollectResult } from './collect.js';
import { describeWriteLosses } from './write-losses.js';
import { stringifyWithFloats } from './python-float.js';

const fmt = (value: unknown, digits: number): string => (typeof value === 'number' ? value.toFixed(digits) : '-');

/** `agent: N rollouts, mean reward …, pass@1 …%` per agent. */
export function metricsSummary(metrics: readonly AgentAggregateMetrics[]): string[] {
  return metrics.map((m) => {
    const a = m.agent_metrics;
    const rollouts = m.group_level_metrics.reduce((n, g) => n + (typeof g['num_rollouts'] === 'number' ? g['num_rollouts'] : 0), 0);
    return `${m.agent_ref.name}: ${rollouts} rollouts, mean reward ${fmt(a['mean/reward'], 3)}, pass@1 ${fmt(a['pass@1/accuracy'], 1)}%`;
  });
}

/**
 * The original's closing block per agent: an empty line, `Key metrics for <agent>:` and the key
 * metrics as Python's `json.dumps(…, indent=4)` writes them (floats as `1.0`, non-ASCII escaped).
 */
export function keyMetricsBlocks(metrics: readonly AgentAggregateMetrics[]): string[] {
  return metrics.flatMap((m) => {
    const json = stringifyWithFloats(m.key_metrics, new Set(Object.keys(m.key_metrics)), 4).replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return ['', `Key metrics for ${m.agent_ref.name}:`, ...json.split('\n')];
  });
}

/** Where the summary's paths are shown from: relative to `cwd` when inside it. */
export interface SummaryOptions {
  cwd?: string;
  /** The run's log directory, when it has one. */
  logDir?: string;
}

/** The closing lines of `gym eval run`: the original's key-metrics blocks, counts and headline metrics, then every file the run wrote. */
export function formatSummary(result: CollectResult, options: SummaryOptions = {}): string[] {
  const lines = [
    ...(result.metrics === undefined ? [] : [...keyMetricsBlocks(result.metrics), '']),
    `rollouts: ${result.succeeded} succeeded, ${result.failed} failed${result.abandoned > 0 ? `, ${result.abandoned} abandoned` : ''} this run; ${result.total - result.incomplete}/${result.total} complete` +
      (result.plan.succeeded > 0 ? ` (${result.plan.succeeded} from earlier runs)` : ''),
  ];
  lines.push(...describeWriteLosses(result.losses, result.paths));
  if (result.evidence !== undefined) lines.push(`model-call captures: ${result.evidence.files} file(s), ${formatBytes(result.evidence.bytes)} in ${result.evidence.captureDir}`);
  if (result.metrics !== undefined) lines.push(...metricsSummary(result.metrics));
  const show = (path: string) => {
    const rel = options.cwd === undefined ? path : relative(options.cwd, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  };
  if (result.incomplete > 0) {
    // the output named: a run without -o writes a new timestamped file, where --resume finds nothing
    const resume = `run again with --resume -o ${show(result.paths.output)}`;
    lines.push(
      result.interrupted
        ? `interrupted: ${result.incomplete} rollouts not done; ${resume} to finish them`
        : `${result.incomplete} rollouts not done; ${resume} to retry them (at most NEMO_GYM_MAX_ROLLOUT_ATTEMPTS attempts each)`,
    );
  }
  const failures = result.failed > 0 || result.plan.exhausted > 0 ? `${result.failed} failed this run` : 'none';
  const files: [string, string, string][] = [
    ['rollouts', result.paths.output, ''],
    ['failures', result.paths.failures, ` (${failures})`],
    ['inputs', result.paths.materializedInputs, ' (the rows as run, for --resume)'],
    ...(result.metrics !== undefined ? [['metrics', result.paths.aggregateMetrics, ''] as [string, string, string]] : []),
    ...(options.logDir !== undefined ? [['logs', options.logDir, ' (one <server>.log each)'] as [string, string, string]] : []),
  ];
  lines.push('files:');
  for (const [label, path, note] of files) if (existsSync(path)) lines.push(`  ${label.padEnd(10)}${show(path)}${note}`);
  return lines;
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

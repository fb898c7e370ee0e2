/**
 * `gym eval aggregate`: concatenating rollout shards (written with `--disable-aggregation`) and
 * recomputing the aggregate metrics over their union. Globs support `*`, `?` and `[…]` in any
 * path segment (not `**`); shells usually expand them before gym sees them.
 * @module
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { ROLLOUT_WARNINGS, RolloutShardsNotFoundError } from './errors.js';
import { describeMalformed } from './jsonl.js';
import { openJsonlAppender, readJsonlFile, ROLLOUT_FLOAT_KEYS, rolloutPaths } from './rollout-files.js';
import { writeRunMetrics } from './run-metrics.js';
import type { AgentAggregateMetrics } from '@gym/server/internal/reward-stats/aggregate-metrics.js';
import type { JsonObject } from './types.js';

const GLOB_CHARS = /[*?[]/;

function segmentRegExp(segment: string): RegExp {
  let source = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 1);
      if (end === -1) source += '\\[';
      else {
        source += `[${segment
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** Expands each pattern (or comma-separated list of patterns) relative to `cwd`; sorted, de-duplicated file paths. */
export function expandInputGlobs(patterns: readonly string[], cwd: string = process.cwd()): string[] {
  const found = new Set<string>();
  for (const pattern of patterns
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    if (!GLOB_CHARS.test(pattern)) {
      const path = resolve(cwd, pattern);
      if (existsSync(path)) found.add(path);
      continue;
    }
    const absolute = isAbsolute(pattern) ? pattern : join(cwd, pattern);
    const segments = absolute.split(sep);
    let bases = [segments[0] === '' ? sep : segments[0]!];
    for (const segment of segments.slice(1)) {
      if (segment === '') continue;
      if (!GLOB_CHARS.test(segment)) {
        bases = bases.map((b) => join(b, segment)).filter((b) => existsSync(b));
        continue;
      }
      const re = segmentRegExp(segment);
      bases = bases.flatMap((b) => {
        try {
          return readdirSync(b)
            .filter((name) => re.test(name))
            .map((name) => join(b, name));
        } catch {
          return [];
        }
      });
    }
    for (const b of bases) if (statSync(b).isFile()) found.add(b);
  }
  return [...found].sort();
}

/** Result of {@link aggregateShards}. */
export interface AggregateShardsResult {
  files: string[];
  rows: number;
  metricsPath: string;
  metrics: AgentAggregateMetrics[];
}

/**
 * Concatenates the shards into `output` (replacing it) and writes `<output stem>_aggregate_metrics.json`
 * computed locally over every row. Shards that are the output itself or a sidecar are skipped.
 */
export async function aggregateShards(patterns: readonly string[], output: string, onWarning: (line: string) => void = () => undefined): Promise<AggregateShardsResult> {
  const paths = rolloutPaths(resolve(output));
  const sidecar = /_(materialized_inputs|failures)\.jsonl$/;
  const files = expandInputGlobs(patterns).filter((f) => f !== paths.output && !sidecar.test(f));
  if (files.length === 0) throw new RolloutShardsNotFoundError(patterns);
  const rows: JsonObject[] = [];
  const writer = openJsonlAppender(paths.output, { replace: true, floatKeys: ROLLOUT_FLOAT_KEYS });
  try {
    for (const file of files) {
      const parsed = readJsonlFile(file);
      if (parsed.malformed.length > 0) onWarning(`${ROLLOUT_WARNINGS.malformedOutput}: ignored ${parsed.malformed.length} line(s) of ${file}: ${describeMalformed(parsed.malformed)}`);
      for (const line of parsed.lines) {
        rows.push(line.value);
        writer.append(line.value);
      }
    }
  } finally {
    writer.close();
  }
  const metrics = await writeRunMetrics({ rows, path: paths.aggregateMetrics });
  return { files, rows: rows.length, metricsPath: paths.aggregateMetrics, metrics };
}

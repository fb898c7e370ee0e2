/**
 * Reads partition files back into spans and metric points, with each span's source (file, line)
 * pointing at the input it came from, not at the partition.
 * @module
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fromConsoleSpan } from '../read/console-span.js';
import { forEachLine } from '../read/lines.js';
import { fromConsoleMetric } from '../read/metric-points.js';
import type { MetricPoint } from '../read/metric-points.js';
import { MAX_MALFORMED_EXAMPLES } from '../read/read-stats.js';
import type { ReadStats } from '../read/read-stats.js';
import type { SpanFormat } from '../read/records.js';
import { ResourceCache } from '../read/resource-cache.js';
import type { SpanRecord } from '../span-record.js';
import { rolloutShardOf, SOURCE_KEY } from './build-partitions.js';
import type { PartitionIndex } from './partition-index.js';

const FORMAT_OF_TAG: Record<string, SpanFormat> = { c: 'console', p: 'python', o: 'otlp' };

/** Reads partitions `which` of `index`; spans and malformed records are counted into `stats`. */
export async function readPartitions(index: PartitionIndex, which: readonly number[], stats: ReadStats, onSpan: (s: SpanRecord) => void, resources = new ResourceCache()): Promise<void> {
  for (const p of which) {
    await forEachRecord(join(index.dir, `${p}.part`), (obj, file, line, tag) => {
      const format = FORMAT_OF_TAG[tag];
      const path = index.givenPaths[file] ?? index.inputs[file]?.path ?? '?';
      const s = format === undefined ? 'invalid JSON' : fromConsoleSpan(obj, { file: path, line }, resources);
      if (typeof s === 'string') {
        stats.malformedLines++;
        if (stats.malformedExamples.length < MAX_MALFORMED_EXAMPLES) stats.malformedExamples.push({ file: path, line, reason: s });
        return;
      }
      stats.spans++;
      stats.formats[format!]++;
      onSpan(s);
    });
  }
}

/** The saturation metric points of the run. */
export async function readIndexMetrics(index: PartitionIndex, resources = new ResourceCache()): Promise<MetricPoint[]> {
  const points: MetricPoint[] = [];
  await forEachRecord(join(index.dir, 'metrics.records'), (obj) => {
    for (const p of fromConsoleMetric(obj, resources)) points.push(p);
  });
  return points;
}

/** Ids of the roots of traces split over several partitions (their children sit elsewhere). */
export async function readSplitRoots(index: PartitionIndex): Promise<Set<string>> {
  const text = await readFile(join(index.dir, 'split-roots.ids'), 'utf8');
  return new Set(text.split('\n').filter((l) => l.length > 0));
}

/** The partitions holding rollout `id` (several when runs with the same rollout ids are read together). */
export async function partitionsOfRollout(index: PartitionIndex, id: string): Promise<number[]> {
  const text = await readFile(join(index.dir, `rollouts-${rolloutShardOf(id)}.idx`), 'utf8');
  const found = new Set<number>();
  const prefix = id + '\t';
  for (const line of text.split('\n')) if (line.startsWith(prefix)) found.add(Number(line.slice(prefix.length)));
  return [...found].sort((a, b) => a - b);
}

// A record the split pass wrote but that does not parse (a console line cut mid-way that still
// ended in `}`) comes back with the tag `?`: counted as malformed where it was read.
async function forEachRecord(path: string, onRecord: (obj: Record<string, unknown>, file: number, line: number, tag: string) => void): Promise<void> {
  await forEachLine(createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 }), (text) => {
    if (text.length === 0) return;
    let obj: Record<string, unknown>;
    try {
      obj = JSON.parse(text) as Record<string, unknown>;
    } catch {
      const m = /^\{"_gym_source":\[(\d+),(\d+),/.exec(text);
      if (m !== null) onRecord({}, Number(m[1]), Number(m[2]), '?');
      return;
    }
    const src = obj[SOURCE_KEY] as [number, number, string] | undefined;
    if (src !== undefined) onRecord(obj, src[0], src[1], src[2]);
  });
}

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
import { rolloutShardOf } from './build-partitions.js';
import type { PartitionIndex } from './partition-index.js';

const FORMAT_OF_TAG: Record<string, SpanFormat> = { c: 'console', p: 'python', o: 'otlp' };

/** Reads partitions `which` of `index`; spans and malformed records are counted into `stats`. */
export async function readPartitions(index: PartitionIndex, which: readonly number[], stats: ReadStats, onSpan: (s: SpanRecord) => void, resources = new ResourceCache()): Promise<void> {
  for (const p of which) {
    await forEachRecord(join(index.dir, `${p}.part`), (file, line, tag, json) => {
      const format = FORMAT_OF_TAG[tag];
      const path = index.inputs[file]?.path ?? '?';
      let obj: unknown;
      try {
        obj = JSON.parse(json);
      } catch {
        obj = null;
      }
      const s = obj === null || typeof obj !== 'object' || format === undefined ? 'invalid JSON' : fromConsoleSpan(obj as Record<string, unknown>, { file: path, line }, resources);
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
  await forEachRecord(join(index.dir, 'metrics.part'), (_file, _line, _tag, json) => {
    for (const p of fromConsoleMetric(JSON.parse(json) as Record<string, unknown>, resources)) points.push(p);
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

async function forEachRecord(path: string, onRecord: (file: number, line: number, tag: string, json: string) => void): Promise<void> {
  await forEachLine(createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 }), (text) => {
    const a = text.indexOf('\t');
    const b = text.indexOf('\t', a + 1);
    if (a < 0 || b < 0) return;
    onRecord(Number(text.slice(0, a)), Number(text.slice(a + 1, b)), text.charAt(b + 1), text.slice(b + 3));
  });
}

/**
 * Reads partition files back into spans and metric points, with each span's source (file, line)
 * pointing at the input it came from, not at the partition.
 * @module
 */
import { createReadStream } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { fromConsoleSpan } from '../read/console-span.js';
import { forEachLine } from '../read/lines.js';
import { fromConsoleMetric } from '../read/metric-points.js';
import type { MetricPoint } from '../read/metric-points.js';
import { MAX_MALFORMED_EXAMPLES } from '../read/read-stats.js';
import type { ReadStats } from '../read/read-stats.js';
import type { SpanFormat } from '../read/records.js';
import { ResourceCache } from '../read/resource-cache.js';
import type { SpanRecord } from '../span-record.js';
import { FORMAT_TAG, rolloutShardOf, SOURCE_KEY } from './build-partitions.js';
import { CompactSpans, CompactSpansWriter } from './compact-spans.js';
import type { PartitionIndex } from './partition-index.js';
import { sliceSpans } from './partition-slices.js';

const FORMAT_OF_TAG: Record<string, SpanFormat> = { c: 'console', p: 'python', o: 'otlp' };
const FORMAT_INDEX = { console: 0, python: 1, otlp: 2 } as const;

/** Suffix of a partition's compact spans file (`<i>.spans`). */
export const COMPACT_SUFFIX = '.spans';

/**
 * Reads partitions `which` of `index`; spans and malformed records are counted into `stats`. A
 * partition read before comes from its compact form (`compact-spans.ts`); one read for the first
 * time is read from its lines, and its compact form is written for the next command.
 */
export async function readPartitions(index: PartitionIndex, which: readonly number[], stats: ReadStats, onSpan: (s: SpanRecord) => void, resources = new ResourceCache()): Promise<void> {
  for (const p of which) {
    const file = await compactPartition(index, p, stats, resources);
    for (let i = 0; i < file.spans; i++) onSpan(file.decode(i));
  }
}

/**
 * Reads partition `p` of `index` as {@link readPartitions} does, handing its spans to `onSlice` in
 * slices of whole traces of about `maxSpans` spans (`partition-slices.ts`; `splitRoots` as
 * {@link readSplitRoots} gives them), one slice after another. Returns the number of slices.
 */
export async function readPartitionSlices(
  index: PartitionIndex,
  p: number,
  stats: ReadStats,
  splitRoots: ReadonlySet<string>,
  maxSpans: number,
  onSlice: (spans: SpanRecord[]) => void,
  resources = new ResourceCache(),
): Promise<number> {
  const file = await compactPartition(index, p, stats, resources);
  const slices = sliceSpans(file, splitRoots, maxSpans);
  for (const slice of slices) {
    const spans = new Array<SpanRecord>(slice.length);
    for (let k = 0; k < slice.length; k++) spans[k] = file.decode(slice[k]!);
    onSlice(spans);
  }
  return slices.length;
}

// The compact form of partition `p`, its spans and malformed records counted into `stats`: read
// from its file, or made from the partition's lines (and written for the next command, unless the
// index is temporary and no one would read it).
async function compactPartition(index: PartitionIndex, p: number, stats: ReadStats, resources: ResourceCache): Promise<CompactSpans> {
  const pathOf = (file: number): string => index.givenPaths[file] ?? index.inputs[file]?.path ?? '?';
  const compactPath = join(index.dir, `${p}${COMPACT_SUFFIX}`);
  let file = await readFile(compactPath).then(
    (bytes) => CompactSpans.open(bytes, pathOf, resources),
    () => null,
  );
  if (file === null) {
    const writer = new CompactSpansWriter();
    await forEachRecord(join(index.dir, `${p}.part`), (obj, inputFile, line, tag) => {
      if (tag === FORMAT_TAG.resource) return resources.state(pathOf(inputFile), obj);
      const format = FORMAT_OF_TAG[tag];
      const s = format === undefined ? 'invalid JSON' : fromConsoleSpan(obj, { file: pathOf(inputFile), line }, resources);
      if (typeof s === 'string') writer.malformed(inputFile, line, s);
      else writer.add(s, inputFile, line, FORMAT_INDEX[format!]);
    });
    const bytes = writer.bytes();
    if (!index.temporary) await writeAtomically(compactPath, bytes);
    file = CompactSpans.open(bytes, pathOf, resources)!;
  }
  stats.spans += file.spans;
  stats.formats.console += file.formats.console;
  stats.formats.python += file.formats.python;
  stats.formats.otlp += file.formats.otlp;
  for (const m of file.malformed) {
    stats.malformedLines++;
    if (stats.malformedExamples.length < MAX_MALFORMED_EXAMPLES) stats.malformedExamples.push({ file: pathOf(m.file), line: m.line, reason: m.reason });
  }
  return file;
}

// Written under a name of its own and renamed into place: a command reading the same index at the
// same time sees the whole file or none. A failed write (a full disk, a read-only index) only
// means the next command reads the lines again.
async function writeAtomically(path: string, bytes: Buffer): Promise<void> {
  const temp = `${path}.${process.pid}-${threadId}.tmp`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, path);
  } catch {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/** The saturation metric points of the run. */
export async function readIndexMetrics(index: PartitionIndex, resources = new ResourceCache()): Promise<MetricPoint[]> {
  const pathOf = (file: number): string => index.givenPaths[file] ?? index.inputs[file]?.path ?? '?';
  const points: MetricPoint[] = [];
  await forEachRecord(join(index.dir, 'metrics.records'), (obj, inputFile, _line, tag) => {
    if (tag === FORMAT_TAG.resource) return resources.state(pathOf(inputFile), obj);
    for (const p of fromConsoleMetric(obj, pathOf(inputFile), resources)) points.push(p);
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

/**
 * `show <rollout>` on a large run: only the partition that holds the rollout is read (the index
 * keeps every span of a rollout in one partition and lists where each rollout is), so it answers
 * in well under a second once the index exists.
 * @module
 */
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findRollouts } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { TraceSet } from '../assemble/trace-model.js';
import { closeIndex } from '../partition/partition-index.js';
import { partitionsOfRollout, readPartitions, readSplitRoots } from '../partition/read-partitions.js';
import { expandPaths } from '../read/expand-paths.js';
import { emptyReadStats } from '../read/read-stats.js';
import type { SpanRecord } from '../span-record.js';
import { resolvePaths } from './default-paths.js';
import { batchBytes, openLogged } from './load-batches.js';
import type { InputOptions } from './load.js';
import type { CommandOutput } from './output.js';

/** The part of the run around one rollout. */
export interface RolloutPartition {
  set: TraceSet;
  rollouts: Rollout[];
}

/**
 * The partition holding rollout `id` of a large input, or null when the input is small enough to
 * read whole or the id is not a rollout id there (then the caller reads the whole input).
 */
export async function loadRolloutPartition(options: InputOptions, id: string, out: CommandOutput): Promise<RolloutPartition | null> {
  const paths = await resolvePaths(options.paths, options.cwd);
  const files = await expandPaths(paths);
  if (files.reduce((n, f) => n + f.bytes, 0) <= batchBytes()) return null;
  const index = await openLogged(files, paths[0]!, out);
  try {
    const spans: SpanRecord[] = [];
    const which = await partitionsOfRollout(index, id);
    if (which.length === 0) return null;
    await readPartitions(index, which, emptyReadStats(), (s) => void spans.push(s));
    const set = assembleTraces(spans, { externalParents: await readSplitRoots(index) });
    const rollouts = findRollouts(set);
    return rollouts.some((r) => r.rolloutId === id) ? { set, rollouts } : null;
  } finally {
    await closeIndex(index);
  }
}

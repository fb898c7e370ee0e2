// A run of concurrent rollouts written as the orchestrator leaves it: one log file per process,
// span lines and metric lines mixed, each process's saturation over the run.
import type { FixtureSpan } from './fixtures.js';
import { AGENT, consoleLine, MODEL, RESOURCES, tempDir } from './fixtures.js';
import type { LoadShape, ProcessResource } from './metric-lines.js';
import { saturationLines, serverMemoryLines } from './metric-lines.js';
import { COLLECTOR, phasedRolloutSpans } from './phased-rollouts.js';
import type { PhasedRolloutOptions } from './phased-rollouts.js';

export const PROCESSES: Record<string, ProcessResource> = {
  [COLLECTOR]: { service: COLLECTOR, pid: 100 },
  [AGENT]: { service: AGENT, pid: 101 },
  [MODEL]: { service: MODEL, pid: 102 },
  [RESOURCES]: { service: RESOURCES, pid: 103 },
};

const FILES: Record<string, string> = { [COLLECTOR]: 'collector.log', [AGENT]: 'simple_agent.log', [MODEL]: 'policy_model.log', [RESOURCES]: 'weather.log' };

export interface RunShape {
  rollouts: number;
  /** Rollouts started every `spacingMs` (concurrent when shorter than a rollout). */
  spacingMs: number;
  /** The hops of rollout `i`. */
  shape: (i: number) => Omit<PhasedRolloutOptions, 'rolloutId' | 'atMs'>;
  /** Load per service; services left out write no metrics. */
  loads?: Partial<Record<string, LoadShape>>;
  /** Orchestrator memory samples for these servers. */
  memory?: string[];
  /** Metric export interval, ms (default 1000). */
  exportEveryMs?: number;
}

/** Builds the spans of the run (rollout ids `0`, `1`, …). */
export function runSpans(run: RunShape): FixtureSpan[] {
  return Array.from({ length: run.rollouts }, (_, i) => phasedRolloutSpans({ rolloutId: String(i), atMs: i * run.spacingMs, ...run.shape(i) })).flat();
}

/** Writes the run's files; returns the temp dir (call `cleanup`). */
export function writeSaturatedRun(run: RunShape, spans: FixtureSpan[] = runSpans(run)) {
  const end = Math.ceil(Math.max(...spans.map((s) => s.endMs))) + 1;
  const lines: Record<string, string[]> = {};
  for (const s of spans) (lines[FILES[s.service] ?? 'other.log'] ??= []).push(consoleLine(s));
  for (const [service, load] of Object.entries(run.loads ?? {})) {
    if (load === undefined) continue;
    (lines[FILES[service]!] ??= []).push(...saturationLines(PROCESSES[service]!, load, -5, end, run.exportEveryMs));
  }
  // each server its own size and growth, so the lines can be told apart
  (run.memory ?? []).forEach((server, i) => {
    (lines['orchestrator.log'] ??= []).push(
      ...serverMemoryLines({ service: 'nemo-gym/orchestrator', pid: 99 }, server, 0, end, (t) => (60 + 45 * i) * 1048576 + t * 20000 * (i + 1), run.exportEveryMs),
    );
  });
  const files: Record<string, string> = {};
  for (const [f, ls] of Object.entries(lines)) files[f] = ls.join('\n') + '\n';
  return tempDir(files);
}

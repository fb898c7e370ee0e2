/**
 * One frame of `gym trace top`, at most 80 columns wide.
 * @module
 */
import { nsToIso } from '../read/time.js';
import { displayService, fit, formatMs } from '../render/format.js';
import { ROLLOUT_STEPS } from './live-run.js';
import type { LiveSnapshot } from './live-run.js';

/** Frame width in columns. */
export const FRAME_WIDTH = 80;

/** What the frame shows besides the snapshot. */
export interface FrameContext {
  /** The paths followed, as given. */
  source: string;
  files: number;
  /** Bytes not read yet (a backlog being caught up), 0 when following the end. */
  behindBytes: number;
  /** True on a terminal that redraws (then the last line says how to quit). */
  live: boolean;
}

const n = (v: number): string => v.toLocaleString('en-US');

/** Renders `s` as lines of at most {@link FRAME_WIDTH} columns, ending in a newline. */
export function renderTopFrame(s: LiveSnapshot, ctx: FrameContext): string {
  const lines: string[] = [];
  const at = s.latestNs === null ? 'no spans yet' : `spans up to ${nsToIso(s.latestNs).slice(11, 19)} UTC`;
  lines.push(`gym trace top  ${keepEnd(ctx.source, 30)}  ${ctx.files} files  ${n(s.spans)} spans`);
  lines.push(ctx.behindBytes > 0 ? `${at}  (catching up: ${n(Math.ceil(ctx.behindBytes / 1048576))} MiB to read)` : at);
  lines.push('');
  lines.push(`rollouts  done ${n(s.done)}  failed ${n(s.failed)}  in flight ${n(s.inFlight)}  ${s.perSecond.toFixed(1)}/s (last 10s)`);
  lines.push(`in flight, last step done: ${ROLLOUT_STEPS.map((step) => `${step} ${n(s.byStep[step])}`).join('  ')}`);
  lines.push('');
  lines.push(`${fit('slowest so far', 40)}${'duration'.padStart(12)}  verdict`);
  if (s.slowest.length === 0) lines.push('  (none finished yet)');
  for (const r of s.slowest) lines.push(`  ${fit(r.rolloutId, 38)}${formatMs(r.durationMs).padStart(12)}  ${r.failed ? 'failed' : 'ok'}`);
  lines.push('');
  lines.push(`${fit('process', 40)}${'loop busy'.padStart(12)}${'delay p99'.padStart(12)}`);
  if (s.processes.length === 0) lines.push('  (no event-loop metrics yet)');
  for (const p of s.processes) {
    const elu = p.elu === null ? '-' : `${Math.round(p.elu * 100)}%`;
    const delay = p.delayP99Ms === null ? '-' : formatMs(p.delayP99Ms);
    lines.push(`  ${fit(displayService(p.service), 38)}${elu.padStart(12)}${delay.padStart(12)}`);
  }
  if (ctx.live) lines.push('', 'Ctrl-C to quit');
  return lines.map((l) => (l.length > FRAME_WIDTH ? l.slice(0, FRAME_WIDTH) : l)).join('\n') + '\n';
}

// A path cut from the left: its end (the run directory's name) is what tells runs apart.
function keepEnd(path: string, width: number): string {
  return path.length <= width ? path : `…${path.slice(path.length - (width - 1))}`;
}

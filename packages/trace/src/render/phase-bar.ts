/**
 * The waterfall bar of one tree row. A CLIENT span with recorded phases is drawn in them — one
 * character per phase, so the picture reads without colour — a call that never reached a server
 * as retries, every other span as a solid block.
 * @module
 */
import { clientPhasesOf } from '../analyze/client-phases.js';
import { HopCuts, hopTimeline } from '../analyze/hop-timeline.js';
import type { HopTimeline } from '../analyze/hop-timeline.js';
import type { SpanTree, TreeRow } from '../analyze/span-tree.js';

/** Characters of a CLIENT bar, by phase. */
export const PHASE_CHARS = { retries: 'x', caller_queue: '░', connect: '▒', transit: '>', server: '█', return: '<' } as const;

/** The legend line for phase bars. */
export const PHASE_LEGEND = `CLIENT bars: ${PHASE_CHARS.caller_queue} caller queue, ${PHASE_CHARS.connect} connect, ${PHASE_CHARS.transit} transit + callee queue, ${PHASE_CHARS.server} callee, ${PHASE_CHARS.return} return, ${PHASE_CHARS.retries} retries`;

/** True when the row is a CLIENT span whose phases were recorded (drawn in phases). */
export function hasPhaseBar(row: TreeRow): boolean {
  return clientPhasesOf(row.node.span) !== null;
}

/** `width` characters: blanks outside the span, its phases or `█` inside. */
export function barText(row: TreeRow, tree: SpanTree, width: number): string {
  if (tree.wallMs <= 0) return '█'.repeat(width);
  const from = Math.min(width - 1, Math.max(0, Math.floor((row.offsetMs / tree.wallMs) * width)));
  const to = Math.min(width, Math.max(from + 1, Math.ceil(((row.offsetMs + row.durationMs) / tree.wallMs) * width)));
  let inner = '█'.repeat(to - from);
  const tl = row.node.span.kind === 'CLIENT' ? hopTimeline(row.node) : null;
  // a call that failed without an answer and left no SERVER span is failed attempts from end to end
  if (tl?.phases === null && tl.unanswered) inner = PHASE_CHARS.retries.repeat(to - from);
  else if (tl !== null && tl.phases !== null) {
    const cellNs = (tree.wallMs * 1e6) / width;
    const { startNs, endNs } = row.node.span;
    inner = '';
    for (let i = from; i < to; i++) {
      // the phase covering most of the cell (within the span), so a short span shows its main phase
      let a = tree.startNs + BigInt(Math.round(i * cellNs));
      let b = tree.startNs + BigInt(Math.round((i + 1) * cellNs));
      if (a < startNs) a = startNs;
      if (b > endNs) b = endNs;
      inner += b > a ? longestIn(tl, a, b) : charAt(tl, a);
    }
  }
  return ' '.repeat(from) + inner + ' '.repeat(width - to);
}

const CUTS = new HopCuts();

function longestIn(tl: HopTimeline, a: bigint, b: bigint): string {
  CUTS.fill(tl, a, b);
  const total = new Map<string, bigint>();
  let from = a;
  for (let k = 0; k < CUTS.count; k++) {
    const to = CUTS.at[k]!;
    const c = charAt(tl, from);
    total.set(c, (total.get(c) ?? 0n) + (to - from));
    from = to;
  }
  let best = PHASE_CHARS.server as string;
  let most = -1n;
  for (const [c, n] of total) if (n > most) [best, most] = [c, n];
  return best;
}

function charAt(tl: HopTimeline, t: bigint): string {
  if (t < tl.attemptNs) return PHASE_CHARS.retries;
  if (t < tl.queuedEndNs) return PHASE_CHARS.caller_queue;
  if (t < tl.connectedNs) return PHASE_CHARS.connect;
  if (tl.server === null) return tl.unanswered ? PHASE_CHARS.retries : PHASE_CHARS.server;
  if (t < tl.serverStartNs) return PHASE_CHARS.transit;
  if (t < tl.serverEndNs) return PHASE_CHARS.server;
  return PHASE_CHARS.return;
}

/**
 * One CLIENT→SERVER hop on the caller's clock: where the caller queued, connected, waited for the
 * callee (wire plus the callee's busy event loop) and got the response back. The instants are
 * clamped into the CLIENT span and kept in order, so every nanosecond of the CLIENT span's own
 * time falls in exactly one phase, whatever the producers' clocks said.
 * @module
 */
import type { SpanNode } from '../assemble/trace-model.js';
import { MAX_EXACT_NS, nsToMs } from '../span-record.js';
import { fillClientPhases } from './client-phases.js';
import type { ClientPhases } from './client-phases.js';
import { failedWithoutAnswer } from './unanswered.js';

/**
 * A phase of a hop. `network_before`/`network_after` are today's split of a CLIENT span without
 * recorded phases (before/after its SERVER child); `no_server` is time after the request was
 * connected when the callee left no SERVER span.
 */
export type HopPhase = 'retries' | 'caller_queue' | 'connect' | 'transit' | 'return' | 'network_before' | 'network_after' | 'no_server';

/** Every hop phase, in time order. */
export const HOP_PHASES: readonly HopPhase[] = ['retries', 'caller_queue', 'connect', 'transit', 'return', 'network_before', 'network_after', 'no_server'];

/** A hop's instants (unix ns, caller's clock, clamped into the CLIENT span and ordered). */
export interface HopTimeline {
  client: SpanNode;
  /** The SERVER span of the last attempt, or null when the callee left none. */
  server: SpanNode | null;
  /**
   * No SERVER span, and the call failed without an answer (refused, reset, timed out): whatever
   * was sent reached no server that answered, so its time after the send is failed attempts, not
   * a missing log.
   */
  unanswered: boolean;
  phases: ClientPhases | null;
  /** Start of the last attempt (the CLIENT start unless the request was re-sent). */
  attemptNs: bigint;
  queuedEndNs: bigint;
  connectedNs: bigint;
  serverStartNs: bigint;
  serverEndNs: bigint;
  /**
   * How far the SERVER span falls outside what the caller's clock allows (it starts before the
   * CLIENT span or before the connection existed, or ends after the CLIENT span), in ms; 0 when
   * consistent. Hosts with different clocks do this; the phases are clamped to the caller's view.
   */
  clockSkewMs: number;
}

/** The SERVER child of the last attempt (latest start), or null. */
export function lastServerChildOf(node: SpanNode): SpanNode | null {
  let best: SpanNode | null = null;
  for (const c of node.children) if (c.span.kind === 'SERVER' && (best === null || c.span.startNs >= best.span.startNs)) best = c;
  return best;
}

/** Builds the timeline of the CLIENT span `client`. */
export function hopTimeline(client: SpanNode): HopTimeline {
  return fillHopTimeline(emptyHopTimeline(), client);
}

/** A timeline to fill with {@link fillHopTimeline} (one per hop being looked at, reused from rollout to rollout). */
export function emptyHopTimeline(): HopTimeline {
  return { client: NO_NODE, server: null, unanswered: false, phases: null, attemptNs: 0n, queuedEndNs: 0n, connectedNs: 0n, serverStartNs: 0n, serverEndNs: 0n, clockSkewMs: 0 };
}

/** Drops what `tl` holds of a rollout's spans, so that a kept timeline keeps none alive. */
export function clearHopTimeline(tl: HopTimeline): void {
  tl.client = NO_NODE;
  tl.server = null;
  tl.phases = null;
}

/**
 * Fills `tl` with the timeline of the CLIENT span `client`: {@link hopTimeline} without a new
 * object; with `phasesInto`, the client phases are read into that object rather than a new one
 * (its owner fills it again for the next hop).
 */
export function fillHopTimeline(tl: HopTimeline, client: SpanNode, phasesInto: ClientPhases | null = null): HopTimeline {
  const cs = client.span.startNs;
  const ce = client.span.endNs;
  const server = lastServerChildOf(client);
  const phases = fillClientPhases(phasesInto, client.span);
  let attemptNs = cs;
  let queuedEndNs = cs;
  let connectedNs = cs;
  if (phases !== null) {
    const sent = clamp(plusMs(cs, phases.sentAtMs), cs, ce);
    // The last attempt began (about) queue + connect before its request was written.
    attemptNs = phases.resent ? clamp(minusMs(sent, phases.queuedMs + phases.connectMs), cs, sent) : cs;
    queuedEndNs = clamp(plusMs(attemptNs, phases.queuedMs), attemptNs, ce);
    connectedNs = clamp(plusMs(queuedEndNs, phases.connectMs), queuedEndNs, ce);
  }
  let serverStartNs = ce;
  let serverEndNs = ce;
  let skewNs = 0n;
  if (server !== null) {
    const ss = server.span.startNs;
    const se = server.span.endNs;
    serverStartNs = clamp(ss, connectedNs, ce);
    serverEndNs = clamp(se, serverStartNs, ce);
    // differences only when positive: each bigint made is an allocation, and skew is rare
    if (connectedNs > ss) skewNs = connectedNs - ss;
    if (se > ce && se - ce > skewNs) skewNs = se - ce;
  }
  tl.client = client;
  tl.server = server;
  tl.unanswered = server === null && failedWithoutAnswer(client.span);
  tl.phases = phases;
  tl.attemptNs = attemptNs;
  tl.queuedEndNs = queuedEndNs;
  tl.connectedNs = connectedNs;
  tl.serverStartNs = serverStartNs;
  tl.serverEndNs = serverEndNs;
  tl.clockSkewMs = nsToMs(skewNs);
  return tl;
}

/** What a kept slot holds once emptied: no span of a past rollout stays alive through it. */
export const NO_NODE = null as unknown as SpanNode;

/** The phase of the CLIENT span's own time at instant `t` (one not covered by its SERVER child). */
export function phaseAt(tl: HopTimeline, t: bigint): HopPhase {
  if (tl.phases === null) {
    if (tl.server === null) return tl.unanswered ? 'retries' : 'no_server';
    return t < tl.serverStartNs ? 'network_before' : 'network_after';
  }
  if (t < tl.attemptNs) return 'retries';
  if (t < tl.queuedEndNs) return 'caller_queue';
  if (t < tl.connectedNs) return 'connect';
  if (tl.server === null) return tl.unanswered ? 'retries' : 'no_server';
  return t >= tl.serverEndNs ? 'return' : 'transit';
}

/** Splits the CLIENT-owned stretch [a, b) at the hop's instants: [phase, ns] pieces in time order. */
export function splitByPhase(tl: HopTimeline, a: bigint, b: bigint): Array<[HopPhase, bigint]> {
  const cuts = new HopCuts();
  cuts.fill(tl, a, b);
  const out: Array<[HopPhase, bigint]> = [];
  let from = a;
  for (let k = 0; k < cuts.count; k++) {
    const to = cuts.at[k]!;
    if (to <= from) continue;
    const phase = phaseAt(tl, from);
    const last = out[out.length - 1];
    if (last !== undefined && last[0] === phase) last[1] += to - from;
    else out.push([phase, to - from]);
    from = to;
  }
  return out;
}

/**
 * The whole hop in phases, in ms (not only its critical part): what the caller saw from its own
 * start to its end, the SERVER span's time as `serverMs`.
 */
export function hopPhaseDurations(tl: HopTimeline): { phases: Partial<Record<HopPhase, number>>; serverMs: number } {
  const { startNs, endNs } = tl.client.span;
  const phases: Partial<Record<HopPhase, number>> = {};
  if (tl.server === null) addPhases(phases, tl, startNs, endNs);
  else {
    addPhases(phases, tl, startNs, tl.serverStartNs);
    addPhases(phases, tl, tl.serverEndNs, endNs);
  }
  return { phases, serverMs: tl.server === null ? 0 : nsToMs(tl.serverEndNs - tl.serverStartNs) };
}

// Adds the pieces of [a, b) to `phases` in ms, as `splitByPhase` cuts and merges them; in numbers
// of ns (exact while the stretch lasts at most 2^53 ns), not an array of pieces per call.
function addPhases(phases: Partial<Record<HopPhase, number>>, tl: HopTimeline, a: bigint, b: bigint): void {
  if (b > a && b - a > MAX_EXACT_NS) {
    for (const [p, ns] of splitByPhase(tl, a, b)) phases[p] = (phases[p] ?? 0) + nsToMs(ns);
    return;
  }
  CUTS.fill(tl, a, b);
  let from = a;
  let phase: HopPhase | null = null;
  let run = 0;
  for (let k = 0; k < CUTS.count; k++) {
    const to = CUTS.at[k]!;
    if (to <= from) continue;
    const p = phaseAt(tl, from);
    if (p !== phase) {
      if (phase !== null) phases[phase] = (phases[phase] ?? 0) + run / 1e6;
      phase = p;
      run = 0;
    }
    run += Number(to - from);
    from = to;
  }
  if (phase !== null) phases[phase] = (phases[phase] ?? 0) + run / 1e6;
}

/**
 * The instants of a hop that fall inside a stretch [a, b), sorted, followed by `b`: where the
 * stretch is cut into phases. One instance is reused for every stretch (no allocation per call).
 */
export class HopCuts {
  /** The cuts, `count` of them. */
  readonly at: bigint[] = [0n, 0n, 0n, 0n, 0n, 0n];
  count = 0;

  /** Sets the cuts of [a, b) of the hop `tl`. */
  fill(tl: HopTimeline, a: bigint, b: bigint): void {
    this.count = 0;
    this.#insert(tl.attemptNs, a, b);
    this.#insert(tl.queuedEndNs, a, b);
    this.#insert(tl.connectedNs, a, b);
    this.#insert(tl.serverStartNs, a, b);
    this.#insert(tl.serverEndNs, a, b);
    this.at[this.count++] = b;
  }

  #insert(t: bigint, a: bigint, b: bigint): void {
    if (t <= a || t >= b) return;
    const at = this.at;
    let i = this.count++;
    while (i > 0 && at[i - 1]! > t) {
      at[i] = at[i - 1]!;
      i--;
    }
    at[i] = t;
  }
}

// reused by `addPhases`: it runs for every hop
const CUTS = new HopCuts();

function clamp(t: bigint, lo: bigint, hi: bigint): bigint {
  return t < lo ? lo : t > hi ? hi : t;
}

// `t` + `ms` in whole ns; `t` itself when that rounds to 0 (no bigint made for a phase that took none)
function plusMs(t: bigint, ms: number): bigint {
  const ns = Math.round(ms * 1e6);
  return ns === 0 ? t : t + BigInt(ns);
}

function minusMs(t: bigint, ms: number): bigint {
  const ns = Math.round(ms * 1e6);
  return ns === 0 ? t : t - BigInt(ns);
}

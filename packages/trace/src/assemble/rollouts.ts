/**
 * Finds rollouts in assembled traces. A rollout is a `gym.rollout` span (attribute
 * `nemo.gym.rollout.id`), each in its own trace under every preset; runs written before that share
 * one trace under `gym.job` (`default`), and both read the same.
 * @module
 */
import { ATTR, SPAN } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';
import type { SpanNode, Trace, TraceSet } from './trace-model.js';

/** One rollout and where it sits. */
export interface Rollout {
  /** `nemo.gym.rollout.id`, or `span:<span id>` when the attribute is missing. */
  rolloutId: string;
  traceId: string;
  trace: Trace;
  /** The `gym.rollout` span. */
  node: SpanNode;
  /**
   * The first `gym.verify` span under it, if any. In what {@link findRollouts} returns, this and
   * `reward` are looked for when first read (getters of the object's class: a spread copy lacks them).
   */
  readonly verify: SpanNode | null;
  /** `gym.verify.reward` of that span, when numeric. */
  readonly reward: number | null;
  /** True when the trace holds other rollouts too (an older `default` run's `gym.job` trace). */
  sharedTrace: boolean;
  /**
   * The caller's CLIENT span around the rollout (the collector's `HTTP POST` to the agent's
   * `/run`), when it is in the input; its time outside `gym.rollout` is the collector's share.
   */
  envelope: SpanNode | null;
}

/** Every rollout of every trace, sorted by start time. */
export function findRollouts(set: TraceSet): Rollout[] {
  const out: Rollout[] = [];
  for (const trace of set.traces.values()) {
    const found: SpanNode[] = [];
    // forEach, not `for … of nodes.values()`: V8 makes an iterator result per span for the latter
    trace.nodes.forEach(pushIfRollout, found);
    for (const node of found) out.push(new FoundRollout(rolloutIdOf(node.span), trace, node, found.length > 1, envelopeOf(node)));
  }
  // usually in start order already (a sort copies the list even then)
  for (let i = 1; i < out.length; i++) if (byRolloutStart(out[i - 1]!, out[i]!) > 0) return out.sort(byRolloutStart);
  return out;
}

// A rollout whose verification is looked for when first asked: `stats` and `why --all` never ask.
class FoundRollout implements Rollout {
  readonly traceId: string;
  #verify: SpanNode | null | undefined = undefined;
  #reward: number | null | undefined = undefined;

  constructor(
    readonly rolloutId: string,
    readonly trace: Trace,
    readonly node: SpanNode,
    readonly sharedTrace: boolean,
    readonly envelope: SpanNode | null,
  ) {
    this.traceId = trace.traceId;
  }

  get verify(): SpanNode | null {
    // the `default` preset has no gym.verify span, but the /verify SERVER span is there
    if (this.#verify === undefined) this.#verify = findDescendant(this.node, isVerifySpan) ?? findDescendant(this.node, isVerifyServerSpan);
    return this.#verify;
  }

  get reward(): number | null {
    if (this.#reward === undefined) this.#reward = (this.verify === null ? null : rewardOf(this.verify.span)) ?? rewardOf(this.node.span);
    return this.#reward;
  }
}

function pushIfRollout(this: SpanNode[], node: SpanNode): void {
  if (node.span.name === SPAN.ROLLOUT) this.push(node);
}

function byRolloutStart(a: Rollout, b: Rollout): number {
  return a.node.span.startNs < b.node.span.startNs ? -1 : a.node.span.startNs > b.node.span.startNs ? 1 : 0;
}

/**
 * The CLIENT span of another process that called the agent's SERVER span (`POST /run`) holding
 * the `gym.rollout` span `node`, or null.
 */
export function envelopeOf(node: SpanNode): SpanNode | null {
  const server = node.parent;
  if (server === null || server.span.kind !== 'SERVER') return null;
  const client = server.parent;
  if (client === null || client.span.kind !== 'CLIENT' || client.span.service === node.span.service) return null;
  return client;
}

/** The outermost span of a rollout: its envelope (the collector's CLIENT span) or `gym.rollout`. */
export function outermostOf(r: Rollout): SpanNode {
  return r.envelope ?? r.node;
}

/** The rollout id of a span (`nemo.gym.rollout.id`), or `span:<id>` when absent. */
export function rolloutIdOf(span: SpanRecord): string {
  const v = span.attributes[ATTR.ROLLOUT_ID];
  return typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' ? String(v) : `span:${span.spanId}`;
}

function isVerifySpan(span: SpanRecord): boolean {
  return span.name === SPAN.VERIFY;
}

function isVerifyServerSpan(span: SpanRecord): boolean {
  return span.kind === 'SERVER' && /\/verify$/.test(String(span.attributes['http.route'] ?? span.name));
}

/** `gym.verify.reward` as a number, or null. */
export function rewardOf(span: SpanRecord): number | null {
  const v = span.attributes[ATTR.VERIFY_REWARD];
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** Depth-first search under `node` (excluding it) for the first span matching `pred`. */
export function findDescendant(node: SpanNode, pred: (s: SpanRecord) => boolean): SpanNode | null {
  const stack: SpanNode[] = [];
  for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (pred(n.span)) return n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return null;
}

/** Every node of the subtree under and including `node`, depth-first, children in start order. */
export function subtree(node: SpanNode): SpanNode[] {
  const out: SpanNode[] = [];
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    out.push(n);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

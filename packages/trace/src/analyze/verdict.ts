/**
 * One verdict per rollout — verified or not, reward, error, truncated — that `show`, `why`,
 * `--failed`, `anomalies` and the report all use, whatever the preset recorded: the reward may be
 * on `gym.verify`, on `gym.rollout`, or only the `POST /verify` SERVER span may exist.
 * @module
 */
import { rewardOf } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { SpanNode } from '../assemble/trace-model.js';
import { ATTR, isTruncated, SPAN } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';
import { routeOf } from './categorize.js';

/** `error` > `incomplete` (a span truncated or never ended) > `no_verify` > `ok`. */
export type VerdictStatus = 'ok' | 'error' | 'incomplete' | 'no_verify';

/** What happened to one rollout. */
export interface RolloutVerdict {
  status: VerdictStatus;
  /** A `gym.verify` span, a `/verify` SERVER span or a reward on `gym.rollout` is there. */
  verified: boolean;
  reward: number | null;
  /** The first error found (span name and message), or null. */
  error: string | null;
  /** A span of the rollout was force-closed at shutdown or never ended. */
  truncated: boolean;
}

/** The verdict of `r` (its `gym.rollout` span and the caller's span around it, if any). */
export function verdictOf(r: Pick<Rollout, 'node' | 'envelope'>): RolloutVerdict {
  const found = walkRollout(r.node);
  const verifySpan = found.verifySpan;
  const verifyServer = found.verifyServer;
  const reward = (verifySpan === null ? null : rewardOf(verifySpan.span)) ?? rewardOf(r.node.span) ?? (verifyServer === null ? null : rewardOf(verifyServer.span));
  const verified = verifySpan !== null || verifyServer !== null || rewardOf(r.node.span) !== null;
  const error = runError(r) ?? (found.error === null ? null : describe(found.error.span));
  const truncated = found.truncated || (r.envelope !== null && isTruncated(r.envelope.span));
  found.verifySpan = found.verifyServer = found.error = null;
  const status: VerdictStatus = error !== null ? 'error' : truncated ? 'incomplete' : verified ? 'ok' : 'no_verify';
  return { status, verified, reward, error, truncated };
}

// What one depth-first walk of a rollout finds (children in start order, the rollout's own span
// first): the first `gym.verify` span and `/verify` SERVER span under it, the first error no retry
// recovered, and whether any span was truncated or never ended. One walk and one stack for every
// rollout, where a list of the subtree and two searches were made per rollout.
const FOUND = { verifySpan: null as SpanNode | null, verifyServer: null as SpanNode | null, error: null as SpanNode | null, truncated: false };
const STACK: SpanNode[] = [];

function walkRollout(root: SpanNode): typeof FOUND {
  const found = FOUND;
  found.verifySpan = found.verifyServer = found.error = null;
  found.truncated = false;
  const stack = STACK;
  if (stack.length > 0) stack.length = 0; // empty unless a walk threw
  stack.push(root);
  while (stack.length > 0) {
    const n = stack.pop()!;
    const s = n.span;
    if (n !== root) {
      if (found.verifySpan === null && s.name === SPAN.VERIFY) found.verifySpan = n;
      if (found.verifyServer === null && isVerifyServerSpan(s)) found.verifyServer = n;
    }
    if (found.error === null && s.status.code === 'ERROR' && !recovered(n)) found.error = n;
    if (!found.truncated && (!s.ended || isTruncated(s))) found.truncated = true;
    const children = n.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found;
}

/** A short label: `reward 1`, `verified`, `no verify`, `error: …`, `incomplete`. */
export function verdictLabel(v: RolloutVerdict): string {
  switch (v.status) {
    case 'ok':
      return v.reward === null ? 'verified' : `reward ${v.reward}`;
    case 'no_verify':
      return 'no verify';
    case 'incomplete':
      return 'incomplete';
    case 'error':
      return `error${v.error === null ? '' : `: ${v.error}`}`;
  }
}

/** True for every status but `ok`: the rollouts `show --failed` lists. */
export function isFailed(v: RolloutVerdict): boolean {
  return v.status !== 'ok';
}

function isVerifyServerSpan(span: SpanRecord): boolean {
  return span.kind === 'SERVER' && (routeOf(span) ?? '').endsWith('/verify');
}

// The agent's /run answering 5xx, or failing, fails the rollout.
function runError(r: Pick<Rollout, 'node'>): string | null {
  const run = r.node.parent;
  if (run !== null && run.span.kind === 'SERVER') {
    const status = Number(run.span.attributes[ATTR.HTTP_STATUS]);
    if (status >= 500) return `${run.span.name} answered ${status}`;
    if (run.span.status.code === 'ERROR') return describe(run.span);
  }
  return null;
}

// An ERROR span fails the rollout unless a retry recovered it: a SERVER attempt that failed, under
// a CLIENT span that tried again and itself ended fine.
function recovered(n: SpanNode): boolean {
  const caller = n.parent;
  return (
    n.span.kind === 'SERVER' &&
    caller !== null &&
    caller.span.kind === 'CLIENT' &&
    caller.span.status.code !== 'ERROR' &&
    caller.span.ended &&
    caller.children.some((c) => c.span.kind === 'SERVER' && c.span.startNs > n.span.startNs)
  );
}

function describe(s: SpanRecord): string {
  return s.status.message === undefined ? s.name : `${s.name}: ${s.status.message}`;
}

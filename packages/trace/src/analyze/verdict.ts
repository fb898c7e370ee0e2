/**
 * One verdict per rollout — verified or not, reward, error, truncated — that `show`, `why`,
 * `--failed`, `anomalies` and the report all use, whatever the preset recorded: the reward may be
 * on `gym.verify`, on `gym.rollout`, or only the `POST /verify` SERVER span may exist.
 * @module
 */
import { findDescendant, rewardOf, subtree } from '../assemble/rollouts.js';
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
  const nodes = subtree(r.node);
  const verifySpan = findDescendant(r.node, (s) => s.name === SPAN.VERIFY);
  const verifyServer = findDescendant(r.node, isVerifyServerSpan);
  const reward = (verifySpan === null ? null : rewardOf(verifySpan.span)) ?? rewardOf(r.node.span) ?? (verifyServer === null ? null : rewardOf(verifyServer.span));
  const verified = verifySpan !== null || verifyServer !== null || rewardOf(r.node.span) !== null;
  const error = firstError(r, nodes);
  const truncated = nodes.some((n) => !n.span.ended || isTruncated(n.span)) || (r.envelope !== null && isTruncated(r.envelope.span));
  const status: VerdictStatus = error !== null ? 'error' : truncated ? 'incomplete' : verified ? 'ok' : 'no_verify';
  return { status, verified, reward, error, truncated };
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

// An ERROR span fails the rollout unless a retry recovered it (a SERVER attempt that failed, under
// a CLIENT span that tried again and itself ended fine); so does the agent's /run answering 5xx.
function firstError(r: Pick<Rollout, 'node'>, nodes: readonly SpanNode[]): string | null {
  const run = r.node.parent;
  if (run !== null && run.span.kind === 'SERVER') {
    const status = Number(run.span.attributes[ATTR.HTTP_STATUS]);
    if (status >= 500) return `${run.span.name} answered ${status}`;
    if (run.span.status.code === 'ERROR') return describe(run.span);
  }
  for (const n of nodes) {
    if (n.span.status.code !== 'ERROR') continue;
    const caller = n.parent;
    const recovered =
      n.span.kind === 'SERVER' &&
      caller !== null &&
      caller.span.kind === 'CLIENT' &&
      caller.span.status.code !== 'ERROR' &&
      caller.span.ended &&
      caller.children.some((c) => c.span.kind === 'SERVER' && c.span.startNs > n.span.startNs);
    if (!recovered) return describe(n.span);
  }
  return null;
}

function describe(s: SpanRecord): string {
  return s.status.message === undefined ? s.name : `${s.name}: ${s.status.message}`;
}

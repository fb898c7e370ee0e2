/**
 * Cold start: the first rollouts of a run open the connections later ones reuse. Counted from
 * `gym.http.connection.reused` (or a non-zero connect time) on the CLIENT spans of a rollout.
 * @module
 */
import { subtree } from '../assemble/rollouts.js';
import type { SpanNode } from '../assemble/trace-model.js';
import { clientPhasesOf, openedConnection } from './client-phases.js';

/** The connections of one rollout's calls. */
export interface RolloutConnections {
  /** CLIENT spans that recorded their phases. */
  recorded: number;
  /** Of those, the ones that opened a new connection. */
  opened: number;
  /** Time spent opening them, ms. */
  connectMs: number;
}

/** Counts the new and reused connections of the calls under `root`. */
export function connectionsOf(root: SpanNode): RolloutConnections {
  const out = { recorded: 0, opened: 0, connectMs: 0 };
  for (const n of subtree(root)) {
    const p = clientPhasesOf(n.span);
    if (p === null) continue;
    out.recorded++;
    if (openedConnection(p)) {
      out.opened++;
      out.connectMs += p.connectMs;
    }
  }
  return out;
}

/** `2 new (3.1ms)`, `reused`, or `-` when no phases were recorded. */
export function connectionsLabel(c: RolloutConnections, formatMs: (ms: number) => string): string {
  if (c.recorded === 0) return '-';
  return c.opened === 0 ? 'reused' : `${c.opened} new (${formatMs(c.connectMs)})`;
}

/**
 * Replica choice with per-session affinity: every turn of a rollout hits
 * the same vLLM, so its prefix cache holds the conversation. replica = first 8 bytes of
 * sha256(session id), big-endian, mod N, as the original computes it.
 * @module
 */
import { createHash } from 'node:crypto';

/** Index of the replica for `sessionId` among `count` replicas. */
export function replicaIndex(sessionId: string, count: number): number {
  if (count <= 1) return 0;
  const digest = createHash('sha256').update(sessionId, 'utf8').digest();
  return Number(digest.readBigUInt64BE(0) % BigInt(count));
}

/**
 * A fixed list of replicas, picked by session. The mapping is a pure function of the session id,
 * so unlike the original there is no per-session cache to grow over a long run.
 */
export class ReplicaSet<T> {
  readonly #replicas: readonly T[];

  constructor(replicas: readonly T[]) {
    if (replicas.length === 0) throw new RangeError('ReplicaSet needs at least one replica');
    this.#replicas = replicas;
  }

  /** How many replicas there are. */
  get size(): number {
    return this.#replicas.length;
  }

  /** The replica serving `sessionId`. */
  pick(sessionId: string): T {
    return this.#replicas[replicaIndex(sessionId, this.#replicas.length)]!;
  }
}

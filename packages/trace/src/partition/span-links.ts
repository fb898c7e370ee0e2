/**
 * Decides the partition of every span of a run from its parent links alone, in typed arrays
 * (about 30 bytes a span, whatever the span holds).
 *
 * A trace goes whole into one partition, unless it is large and its root has several children
 * (the `default` preset puts a whole run under one `gym.job` trace): then each subtree under its
 * root — one rollout, with the collector's call around it — goes to a partition of its own, and
 * the root stays with the trace's other top-level spans. Spans whose parent is missing (orphans)
 * stay with their trace.
 * @module
 */

/** The routing of every span, in the order the spans were added. */
export interface SpanRouting {
  /** Partition of span i. */
  partitionOf: Uint16Array;
  /** Ids (hex) of the roots of split traces: their children sit in other partitions. */
  splitRoots: Set<string>;
}

/** Collects spans' ids in the order they are read, then routes them. */
export class SpanLinks {
  #spanHi = new Uint32Array(1024);
  #spanLo = new Uint32Array(1024);
  #parentHi = new Uint32Array(1024);
  #parentLo = new Uint32Array(1024);
  #trace = new Uint32Array(1024);
  count = 0;

  /** Adds one span (ids as lowercase hex; `parentSpanId` null for a root). */
  add(traceId: string, spanId: string, parentSpanId: string | null): void {
    this.#push(
      hexWord(traceId, traceId.length - 8),
      hexWord(spanId, 0),
      hexWord(spanId, 8),
      parentSpanId === null ? 0 : hexWord(parentSpanId, 0),
      parentSpanId === null ? 0 : hexWord(parentSpanId, 8),
    );
  }

  /**
   * {@link add} for ids that are lower-case hex digits in `bytes`: the trace id's 32 at `traceAt`,
   * the span id's 16 at `spanAt`, the parent's 16 at `parentAt` (-1 for a root). Read as numbers
   * where they lie, without a string per id.
   */
  addHexBytes(bytes: Buffer, traceAt: number, spanAt: number, parentAt: number): void {
    this.#push(
      hexWordAt(bytes, traceAt + 24),
      hexWordAt(bytes, spanAt),
      hexWordAt(bytes, spanAt + 8),
      parentAt < 0 ? 0 : hexWordAt(bytes, parentAt),
      parentAt < 0 ? 0 : hexWordAt(bytes, parentAt + 8),
    );
  }

  #push(trace: number, spanHi: number, spanLo: number, parentHi: number, parentLo: number): void {
    if (this.count === this.#spanHi.length) this.#grow();
    const i = this.count++;
    this.#spanHi[i] = spanHi;
    this.#spanLo[i] = spanLo;
    this.#parentHi[i] = parentHi;
    this.#parentLo[i] = parentLo;
    this.#trace[i] = trace;
  }

  /**
   * Routes every span added to one of `partitions` partitions; a trace with more than
   * `largeTraceSpans` spans is split into the subtrees under its root. Call once: it frees the
   * parent ids as it goes.
   */
  route(partitions: number, largeTraceSpans: number): SpanRouting {
    const n = this.count;
    const parent = this.#linkParents();
    // the parent ids are no longer needed (-1 marks a true root, -2 an orphan): free them first
    this.#parentHi = new Uint32Array(0);
    this.#parentLo = new Uint32Array(0);
    // the root (or topmost orphan) of each span, and the child of that root it descends from
    const root = new Int32Array(n).fill(-1);
    const top = new Int32Array(n).fill(-1);
    const path: number[] = [];
    for (let i = 0; i < n; i++) {
      if (root[i] !== -1) continue;
      let j = i;
      while (root[j] === -1 && parent[j]! >= 0) {
        root[j] = -2; // on the current path
        path.push(j);
        j = parent[j]!;
      }
      if (root[j] === -2) {
        // a cycle (garbage input): every span on it stands alone, with its trace
        for (const s of path) root[s] = s;
        path.length = 0;
        continue;
      }
      if (root[j] === -1) root[j] = j; // a root, or an orphan
      const r = root[j]!;
      // `top` is the span right under the root that a span descends from (-1 for the root itself)
      let t = j === r ? -1 : top[j]!;
      for (let k = path.length - 1; k >= 0; k--) {
        const s = path[k]!;
        root[s] = r;
        if (t === -1) t = s;
        top[s] = t;
      }
      path.length = 0;
    }
    const size = new Uint32Array(n);
    for (let i = 0; i < n; i++) size[root[i]!]!++;
    // a true root with several children, in a large trace, is split from its subtrees
    const splitAt = new Uint8Array(n);
    for (let r = 0; r < n; r++) if (root[r] === r && parent[r] === -1 && size[r]! > largeTraceSpans) splitAt[r] = 1;
    const children = size.fill(0); // the sizes are read: their array counts children now
    for (let i = 0; i < n; i++) if (top[i] === i) children[root[i]!]!++;
    for (let r = 0; r < n; r++) if (splitAt[r] === 1 && children[r]! < 2) splitAt[r] = 0;
    const partitionOf = new Uint16Array(n);
    const splitRoots = new Set<string>();
    for (let i = 0; i < n; i++) {
      const r = root[i]!;
      // A true root (no parent) of a large trace with several subtrees is split from them; orphans
      // are not. A root with one child (a rollout's own trace, the collector's call at its top)
      // keeps its trace whole: a rollout is never cut.
      const split = splitAt[r] === 1 && top[i] !== -1;
      if (split) {
        const t = top[i]!;
        partitionOf[i] = mix(this.#spanHi[t]! ^ Math.imul(this.#spanLo[t]!, 0x9e3779b1)) % partitions;
        if (i === t) splitRoots.add(idHex(this.#spanHi[r]!, this.#spanLo[r]!));
      } else partitionOf[i] = mix(this.#trace[i]!) % partitions;
    }
    return { partitionOf, splitRoots };
  }

  // parent index of each span, -1 for a root, -2 for an orphan (open addressing over the 64-bit span id)
  #linkParents(): Int32Array {
    const n = this.count;
    let cap = 16;
    while (cap < n * 1.5) cap *= 2;
    const table = new Int32Array(cap).fill(-1);
    const mask = cap - 1;
    for (let i = 0; i < n; i++) {
      let h = mix(this.#spanHi[i]! ^ Math.imul(this.#spanLo[i]!, 0x9e3779b1)) & mask;
      for (;;) {
        const at = table[h]!;
        if (at === -1) {
          table[h] = i;
          break;
        }
        // the same span twice (exported twice): the first copy stands for both
        if (this.#spanHi[at] === this.#spanHi[i] && this.#spanLo[at] === this.#spanLo[i]) break;
        h = (h + 1) & mask;
      }
    }
    const parent = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      const hi = this.#parentHi[i]!;
      const lo = this.#parentLo[i]!;
      if (hi === 0 && lo === 0) continue;
      parent[i] = -2; // an orphan unless the parent is found
      let h = mix(hi ^ Math.imul(lo, 0x9e3779b1)) & mask;
      for (;;) {
        const at = table[h]!;
        if (at === -1) break;
        if (this.#spanHi[at] === hi && this.#spanLo[at] === lo) {
          // a span naming itself as its parent counts as a root, as assembly treats it
          parent[i] = at !== i ? at : -1;
          break;
        }
        h = (h + 1) & mask;
      }
    }
    return parent;
  }

  // doubling while small, then by a quarter: tens of millions of spans waste little memory
  #grow(): void {
    const size = this.#spanHi.length < 1 << 20 ? this.#spanHi.length * 2 : Math.ceil(this.#spanHi.length * 1.25);
    const grow = (a: Uint32Array): Uint32Array<ArrayBuffer> => {
      const b = new Uint32Array(size);
      b.set(a.subarray(0, this.count));
      return b;
    };
    this.#spanHi = grow(this.#spanHi);
    this.#spanLo = grow(this.#spanLo);
    this.#parentHi = grow(this.#parentHi);
    this.#parentLo = grow(this.#parentLo);
    this.#trace = grow(this.#trace);
  }
}

function hexWord(hex: string, at: number): number {
  return parseInt(hex.slice(at, at + 8), 16) >>> 0;
}

// the value of 8 lower-case hex digits (validated by the caller) at `at`
function hexWordAt(bytes: Buffer, at: number): number {
  let v = 0;
  for (let i = at; i < at + 8; i++) {
    const c = bytes[i]!;
    v = (v << 4) | (c <= 57 ? c - 48 : c - 87);
  }
  return v >>> 0;
}

function idHex(hi: number, lo: number): string {
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

// murmur3's finaliser: spreads nearby ids over the partitions
function mix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

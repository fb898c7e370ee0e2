/**
 * Cuts a partition's spans into slices that are analysed one after another, so that only one
 * slice's span objects are alive at a time. A partition of a large run holds tens of thousands of
 * spans; while they are read and analysed as one batch every young-generation collection copies
 * them all, and that copying was a third of the CPU of `stats` over 20M spans. A slice holds whole
 * units — a trace, or, for a trace split over partitions, one subtree under its root (a rollout
 * under `gym.job`) — so every slice is a batch as the analyses expect it.
 * @module
 */
import type { CompactSpans } from './compact-spans.js';

const UNSEEN = -1;
const ON_PATH = -2;

/**
 * The span indices of each slice of `file`, ascending, each slice holding whole units of about
 * `maxSpans` spans (a unit larger than that is a slice of its own). `splitRoots` are the ids of
 * the roots of traces split over partitions: the subtrees under them are units of their own.
 * The cuts depend only on the file and these two arguments.
 */
export function sliceSpans(file: CompactSpans, splitRoots: ReadonlySet<string>, maxSpans: number): Int32Array[] {
  const n = file.spans;
  const unit = unitsOf(file, splitRoots);
  // the units' sizes, and the order they are first met in (spans of many units interleave)
  const sizeOfUnit = new Map<number, number>();
  for (let i = 0; i < n; i++) sizeOfUnit.set(unit[i]!, (sizeOfUnit.get(unit[i]!) ?? 0) + 1);
  // consecutive units fill a slice while it has fewer than `maxSpans` spans
  const sliceOfUnit = new Map<number, number>();
  const sizes: number[] = [];
  sizeOfUnit.forEach((size, u) => {
    const last = sizes.length - 1;
    const s = last >= 0 && sizes[last]! < maxSpans ? last : sizes.push(0) - 1;
    sizes[s]! += size;
    sliceOfUnit.set(u, s);
  });
  const slices = sizes.map((size) => new Int32Array(size));
  const filled = new Int32Array(sizes.length);
  for (let i = 0; i < n; i++) {
    const s = sliceOfUnit.get(unit[i]!)!;
    slices[s]![filled[s]!++] = i;
  }
  return slices;
}

/**
 * Each span's unit, as a number: spans of a trace share one (the trace's index plus `n`), except
 * under a split root, where each subtree below the root has its own (the index of its top span).
 */
function unitsOf(file: CompactSpans, splitRoots: ReadonlySet<string>): Int32Array {
  const n = file.spans;
  const parent = file.parent;
  // whether a parent reference names a split root: asked once per parent index
  const splitInside = new Map<number, boolean>();
  const isSplitRoot = (p: number): boolean => {
    if (p <= -2) return splitRoots.has(file.externalId(-2 - p));
    if (p < 0) return false;
    let known = splitInside.get(p);
    if (known === undefined) splitInside.set(p, (known = splitRoots.has(file.idOf(p))));
    return known;
  };
  // the top of each span: the highest ancestor in this file below any split root
  const top = new Int32Array(n).fill(UNSEEN);
  const path: number[] = [];
  for (let i = 0; i < n; i++) {
    if (top[i] !== UNSEEN) continue;
    let j = i;
    let found: number;
    for (;;) {
      top[j] = ON_PATH;
      path.push(j);
      const p = parent[j]!;
      if (p < 0 || isSplitRoot(p)) {
        found = j;
        break;
      }
      if (top[p] === ON_PATH) {
        // a cycle of parents (hostile input): its first span met stands for it
        found = p;
        break;
      }
      if (top[p] !== UNSEEN) {
        found = top[p]!;
        break;
      }
      j = p;
    }
    for (const k of path) top[k] = found;
    path.length = 0;
  }
  const unit = new Int32Array(n);
  // a subtree's top exported twice is one unit (its children name the first copy as parent)
  const firstOfId = new Map<string, number>();
  for (let t = 0; t < n; t++) {
    if (top[t] !== t) continue;
    if (!isSplitRoot(parent[t]!)) unit[t] = n + file.trace[t]!;
    else {
      const id = file.idOf(t);
      const first = firstOfId.get(id);
      if (first === undefined) firstOfId.set(id, t);
      unit[t] = first ?? t;
    }
  }
  for (let i = 0; i < n; i++) unit[i] = unit[top[i]!]!;
  return unit;
}

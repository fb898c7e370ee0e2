/**
 * "Did you mean …" suggestions by Levenshtein distance.
 * @module
 */

/** Edit distance (insert, delete, substitute; each costs 1) between `a` and `b`. */
export function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * Up to `limit` (default 3) candidates within a distance of a third of the longer word (at least 2),
 * closest first, ties in input order. Case-insensitive. Returns `[]` when nothing is close.
 */
export function closeMatches(word: string, candidates: readonly string[], limit = 3): string[] {
  const scored = [...new Set(candidates)]
    .map((c) => ({ c, d: levenshtein(word.toLowerCase(), c.toLowerCase()) }))
    .filter(({ c, d }) => {
      const longer = Math.max(word.length, c.length);
      return d < longer && d <= Math.max(2, Math.floor(longer / 3));
    });
  return scored
    .sort((x, y) => x.d - y.d)
    .slice(0, limit)
    .map(({ c }) => c);
}

/**
 * The grading of `example_multi_step`, as the original computes it: the values of the **last**
 * `extract_synonym_values` call against the row's `expected_synonym_values`, compared with
 * Python's `==` (so `711` equals `711.0` and `true` equals `1`).
 * @module
 */

/** The verify fields beside `reward`. */
export interface SynonymGrade {
  parsed_synonym_values: unknown[];
  accuracy: boolean;
  set_overlap: number;
  original_term_minefield_hit: boolean;
  order_instruction_following_failure: boolean;
}

/** A key under which values Python's `==` and `hash` treat as one (numbers and booleans by value). */
function pyKey(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return `n:${Number(value)}`;
  if (typeof value === 'string') return `s:${value}`;
  return `j:${JSON.stringify(value)}`;
}

/**
 * The values of the last `extract_synonym_values` call in `output`, `[]` when there is none. Its
 * arguments must be a JSON object whose `synonym_values` is a list: anything else counts as no
 * values (the original fails the request with a 500 there).
 */
export function lastExtractedValues(output: readonly unknown[]): unknown[] {
  for (let i = output.length - 1; i >= 0; i--) {
    const item = output[i] as { type?: unknown; name?: unknown; arguments?: unknown } | null;
    if (item?.type !== 'function_call' || item.name !== 'extract_synonym_values') continue;
    try {
      const values = (JSON.parse(String(item.arguments)) as { synonym_values?: unknown } | null)?.synonym_values;
      return Array.isArray(values) ? values : [];
    } catch {
      return [];
    }
  }
  return [];
}

/** Grades `actual` against the row: exact list equality is the reward; the rest are diagnostics. */
export function gradeSynonymValues(actual: unknown[], expected: readonly number[], minefieldLabel: string, minefieldValue: number): SynonymGrade {
  const accuracy = actual.length === expected.length && actual.every((value, i) => pyKey(value) === pyKey(expected[i]));
  const actualKeys = new Set(actual.map(pyKey));
  const shared = new Set(expected.map(pyKey).filter((key) => actualKeys.has(key))).size;
  const setOverlap = shared / expected.length;
  return {
    parsed_synonym_values: actual,
    accuracy,
    set_overlap: setOverlap,
    original_term_minefield_hit: actualKeys.has(pyKey(minefieldLabel)) || actualKeys.has(pyKey(minefieldValue)),
    order_instruction_following_failure: !accuracy && setOverlap === 1.0,
  };
}

/** A synonym's value: the sum of its characters' code points (Python's `sum(map(ord, s))`). */
export function synonymValue(synonym: string): number {
  let sum = 0;
  for (const char of synonym) sum += char.codePointAt(0)!;
  return sum;
}

/**
 * The rows' `template_metadata.output_regex` (a dataset's Python answer patterns, which graders
 * such as mcqa run with Python's semantics) checked before the first rollout: a pattern Python
 * accepts but no JavaScript RegExp can match as Python does would fail each of its rows' `/verify`,
 * so the run says so up front, once per pattern, naming the construct.
 * @module
 */
import { compilePythonRegex, PYTHON_RE_FLAGS, UnsupportedPythonRegexError } from '@gym/server/internal/python-re/index.js';
import { isJsonObject } from './types.js';
import type { JsonObject } from './types.js';

/** One line per distinct pattern of `rows` that cannot run as in Python: the pattern, why, and how many rows carry it. */
export function untranslatableOutputRegexes(rows: Iterable<JsonObject>): string[] {
  const rowsOf = new Map<string, number>();
  for (const row of rows) {
    const metadata = row['template_metadata'];
    const patterns = isJsonObject(metadata) ? metadata['output_regex'] : undefined;
    for (const pattern of Array.isArray(patterns) ? patterns : [patterns]) if (typeof pattern === 'string') rowsOf.set(pattern, (rowsOf.get(pattern) ?? 0) + 1);
  }
  const out: string[] = [];
  for (const [pattern, count] of rowsOf) {
    try {
      // as graders read dataset patterns: IGNORECASE (mcqa's re.findall(pattern, text, re.IGNORECASE))
      compilePythonRegex(pattern, PYTHON_RE_FLAGS.IGNORECASE);
    } catch (error) {
      if (error instanceof UnsupportedPythonRegexError) out.push(`output_regex ${JSON.stringify(pattern)} of ${count} row(s): ${error.construct}`);
    }
  }
  return out;
}

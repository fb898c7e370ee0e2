/**
 * The few Python semantics the workplace tools depend on, so their answers and state changes are
 * the original's: truthiness, `str.lower()` refusing non-strings, pandas' case-insensitive
 * `str.contains` (a regular expression), and `int()` of a digit string.
 * @module
 */

/** Python's truthiness: `None`, `False`, `0`, `''`, `[]` and `{}` are false. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return value !== '';
  if (Array.isArray(value)) return value.length > 0;
  return typeof value !== 'object' || Object.keys(value).length > 0;
}

/** Python's name of a JSON value's type, for error messages. */
function pyType(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return Array.isArray(value) ? 'list' : typeof value === 'string' ? 'str' : 'dict';
}

/** `value.lower()`: a non-string raises, as in Python. */
export function lower(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`'${pyType(value)}' object has no attribute 'lower'`);
  return value.toLowerCase();
}

/** `needle in text` for a string `text`: a non-string needle raises. */
export function within(needle: unknown, text: string): boolean {
  if (typeof needle !== 'string') throw new TypeError(`'in <string>' requires string as left operand, not ${pyType(needle)}`);
  return text.includes(needle);
}

/** pandas `series.str.contains(pattern, case=False)` for one value: a regular expression search; a missing value does not match. */
export function containsPattern(value: unknown, pattern: unknown): boolean {
  if (typeof pattern !== 'string') throw new TypeError(`first argument must be string or compiled pattern`);
  return typeof value === 'string' && new RegExp(pattern, 'iu').test(value);
}

/** Python's `int()` of a string of digits (surrounding spaces allowed). */
export function pyInt(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
  throw new TypeError(`invalid literal for int(): ${JSON.stringify(value)}`);
}

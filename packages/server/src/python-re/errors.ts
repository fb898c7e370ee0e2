/**
 * The two ways compiling a Python pattern fails: Python itself rejects it ({@link PythonRegexError},
 * with the message `re.error` gives), or Python accepts it but no JavaScript RegExp can match as
 * Python would ({@link UnsupportedPythonRegexError}).
 * @module
 */

/** The exception class Python raises: `re.error` for nearly everything, `ValueError` for incompatible flags, `OverflowError` for a huge repeat count. */
export type PythonErrorClass = 'error' | 'ValueError' | 'OverflowError';

/** Python's compile error: `msg`, `pos` in code points (null for errors Python gives without one), and its class. */
export class PythonRegexError extends Error {
  override name = 'PythonRegexError';
  constructor(
    readonly msg: string,
    readonly pattern: string,
    readonly pos: number | null,
    readonly pythonClass: PythonErrorClass = 'error',
  ) {
    super(describe(msg, pattern, pos));
  }
}

/** `str(re.error)`: the message, ` at position N`, and the line and column when the pattern has several lines. */
function describe(msg: string, pattern: string, pos: number | null): string {
  if (pos === null) return msg;
  const before = [...pattern].slice(0, pos).join('');
  let text = `${msg} at position ${pos}`;
  if (pattern.includes('\n')) {
    const line = before.split('\n').length;
    const column = pos - (before.lastIndexOf('\n') === -1 ? -1 : [...before.slice(0, before.lastIndexOf('\n'))].length);
    text += ` (line ${line}, column ${column})`;
  }
  return text;
}

/** A pattern Python accepts that this translation cannot match exactly as Python does. */
export class UnsupportedPythonRegexError extends Error {
  override name = 'UnsupportedPythonRegexError';
  constructor(
    readonly construct: string,
    readonly pattern: string,
  ) {
    super(`cannot match ${construct} as Python does, in pattern ${JSON.stringify(pattern)}`);
  }
}

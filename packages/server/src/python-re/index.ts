/**
 * Python's `re` for JavaScript: compile a pattern written for Python (a dataset's answer regex, a
 * grader's rule) and match it exactly as CPython 3.11 would, or fail at compile time with
 * Python's own error, or with a clear refusal for the few constructs no JavaScript RegExp can
 * reproduce. Self-contained: no imports outside this folder.
 * @module
 */
export { compilePythonRegex, PythonMatch, PythonPattern } from './python-pattern.js';
export { PythonRegexError, UnsupportedPythonRegexError } from './errors.js';
export type { PythonErrorClass } from './errors.js';
export { FLAG as PYTHON_RE_FLAGS } from './syntax.js';

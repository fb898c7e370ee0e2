/**
 * The JSON body parser of every gym server. `JSON.parse` itself copes with any nesting, but
 * everything after it (zod, `JSON.stringify` of a reply echoing the body, spreads) recurses, so a
 * body nested a few thousand levels deep would become a `RangeError` 500. Bodies deeper than
 * {@link MAX_JSON_DEPTH} are refused at the edge with a 400, and so is an object key `__proto__`,
 * which a later copy could turn into a prototype change. Both answers name where in the body.
 * @module
 */
import { GymHttpRequestError } from '../http/errors.js';

/**
 * Deepest nesting of objects and arrays a body (or an input JSONL row) may have. Real rollouts
 * stay far below (a JSON schema of a tool, token-id arrays: a dozen levels); every hop adds a
 * few levels, and stack-recursive code downstream copes with this many.
 */
export const MAX_JSON_DEPTH = 512;

/** Where a body breaks a rule of {@link checkJsonShape}: its location and what is wrong. */
export interface JsonShapeProblem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * Checks a parsed JSON value: nesting at most `maxDepth`, no `__proto__` key. Returns the first
 * problem, or undefined. Recursion never goes deeper than `maxDepth + 1` frames.
 */
export function checkJsonShape(value: unknown, maxDepth: number = MAX_JSON_DEPTH): JsonShapeProblem | undefined {
  return visitJson(value, 1, maxDepth, []);
}

// a module function, not a closure per body: under tsx a named closure also costs a `defineProperty`
// of its name on every request (a top frame of this file in the resources server's profile)
function visitJson(node: unknown, depth: number, maxDepth: number, path: (string | number)[]): JsonShapeProblem | undefined {
  if (node === null || typeof node !== 'object') return undefined;
  if (depth > maxDepth) {
    return { loc: path.slice(0, 8), msg: `JSON is nested deeper than ${maxDepth} levels`, type: 'json_too_deep' };
  }
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const item: unknown = node[i];
      if (item === null || typeof item !== 'object') continue;
      path.push(i);
      const problem = visitJson(item, depth + 1, maxDepth, path);
      if (problem !== undefined) return problem;
      path.pop();
    }
    return undefined;
  }
  for (const key in node) {
    if (key === '__proto__') {
      return { loc: [...path, key], msg: 'Key "__proto__" is not allowed: it could change the prototype of an object', type: 'forbidden_key' };
    }
    const item = (node as Record<string, unknown>)[key];
    if (item === null || typeof item !== 'object') continue;
    path.push(key);
    const problem = visitJson(item, depth + 1, maxDepth, path);
    if (problem !== undefined) return problem;
    path.pop();
  }
  return undefined;
}

/**
 * Parses a request body: JSON, then {@link checkJsonShape}. Throws `GymHttpRequestError` (400, a
 * FastAPI-style `detail` list) for invalid JSON, too deep a nesting or a `__proto__` key.
 */
export function parseJsonBody(text: string, maxDepth: number = MAX_JSON_DEPTH): unknown {
  if (text.length === 0) throw new GymHttpRequestError(400, [{ loc: ['body'], msg: 'Empty JSON body', type: 'json_invalid' }]);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GymHttpRequestError(400, [{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid', ctx: { error: (error as Error).message } }]);
  }
  if (cannotBreakShape(text, maxDepth)) return value;
  const problem = checkJsonShape(value, maxDepth);
  if (problem !== undefined) throw new GymHttpRequestError(400, [{ ...problem, loc: ['body', ...problem.loc] }]);
  return value;
}

/**
 * Whether the JSON `text` is too short to nest deeper than `maxDepth` (each level takes an opening
 * and a closing bracket) and holds no `__proto__` key: it has neither those letters nor a `\u`
 * escape, which could spell them. Such a text (most requests: tool calls, a rollout's first model
 * call) needs no walk of its value.
 */
function cannotBreakShape(text: string, maxDepth: number): boolean {
  return text.length < 2 * (maxDepth + 1) && !text.includes('__proto__') && !text.includes('\\u');
}

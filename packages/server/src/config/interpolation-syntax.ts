/**
 * The syntax of `${…}` interpolation strings: splitting a string into text and expressions,
 * resolver arguments, and key paths.
 * @module
 */

/** A piece of a template string. */
export type TemplatePart = { kind: 'text'; text: string } | { kind: 'expr'; body: string };

/** True when `value` contains an (unescaped) interpolation. */
export function hasInterpolation(value: string): boolean {
  return /(^|[^\\])\$\{/.test(value);
}

/**
 * Splits `s` into literal text and `${…}` bodies (nesting allowed: `${oc.env:A,${b}}`).
 * `\${` is a literal `${`.
 * @throws {Error} with a short reason for an unterminated `${`.
 */
export function parseTemplate(s: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = '';
  let i = 0;
  while (i < s.length) {
    if (s.startsWith('\\${', i)) {
      text += '${';
      i += 3;
    } else if (s.startsWith('${', i)) {
      const end = matchingBrace(s, i + 1);
      if (end === -1) throw new Error(`unterminated interpolation in '${s}'`);
      if (text !== '') parts.push({ kind: 'text', text });
      text = '';
      parts.push({ kind: 'expr', body: s.slice(i + 2, end) });
      i = end + 1;
    } else {
      text += s[i];
      i++;
    }
  }
  if (text !== '') parts.push({ kind: 'text', text });
  return parts;
}

/** Index of the `}` closing the `{` at `open`, or -1. */
function matchingBrace(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** A parsed expression: a resolver call or a key path. */
export type Expression = { kind: 'resolver'; name: string; args: string[] } | { kind: 'key'; key: string };

/** Classifies an expression body: `name:args` is a resolver call, anything else a key path. */
export function parseExpression(body: string): Expression {
  const m = /^\s*([A-Za-z_][\w.]*)\s*:([\s\S]*)$/.exec(body);
  if (m === null) return { kind: 'key', key: body.trim() };
  return { kind: 'resolver', name: m[1]!, args: splitArgs(m[2]!) };
}

/** Splits resolver arguments on commas outside `${…}` and quotes; trims each. */
function splitArgs(s: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let quote = '';
  let cur = '';
  for (const ch of s) {
    if (quote !== '') {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '{') depth++;
    else if (ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      args.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  args.push(cur.trim());
  return args.length === 1 && args[0] === '' ? [] : args;
}

/**
 * Parses a key path relative to the node at `from` (the node holding the interpolation):
 * `a.b[0].c` and `a.b.0.c` are absolute; `.x` is a sibling of that node, `..x` its parent's sibling.
 * Returns `undefined` for an empty or malformed key.
 */
export function parseKeyPath(key: string, from: readonly (string | number)[]): (string | number)[] | undefined {
  const lead = /^\.*/.exec(key)![0].length;
  const rest = key.slice(lead);
  const base = lead === 0 ? [] : from.slice(0, Math.max(0, from.length - lead));
  if (lead > from.length) return undefined;
  const segs: (string | number)[] = [];
  for (const piece of rest.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(piece);
    if (m === null || (m[1] === '' && m[2] === '')) return undefined;
    if (m[1] !== '') segs.push(m[1]!);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) segs.push(Number(idx[1]));
  }
  return [...base, ...segs];
}

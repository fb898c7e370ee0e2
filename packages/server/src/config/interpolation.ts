/**
 * Resolving `${a.b}`, `${oc.env:VAR}` and `${oc.env:VAR,default}` over a merged config tree.
 * @module
 */
import { ConfigInterpolationError } from './errors.js';
import { hasInterpolation, parseExpression, parseKeyPath, parseTemplate } from './interpolation-syntax.js';
import { closeMatches } from './suggest.js';
import { cloneTree, formatPath, getAt, isMap } from './tree.js';
import type { Provenance } from './provenance.js';
import type { KeyPath } from './tree.js';
import type { ConfigMap } from './types.js';

/** Options of {@link resolveInterpolations}. */
export interface InterpolationOptions {
  /** Variables for `${oc.env:…}`. */
  env: Readonly<Record<string, string | undefined>>;
  /** Used to name the file each failing value came from. */
  provenance?: Provenance;
}

/** The OmegaConf marker for a mandatory value nobody set. */
export const MISSING = '???';

const FAILED = Symbol('failed');
const RESOLVERS = ['oc.env', 'copy'];

/**
 * Returns a copy of `tree` with every interpolation resolved. A string that is exactly one
 * `${…}` takes the referenced value with its type (map, list, number…); inside a longer string
 * the value is stringified (maps and lists are an error there). References to `???` stay `???`
 * so the missing-value check reports them. `\${` is a literal `${`.
 * @throws {ConfigInterpolationError} listing every failure (unknown key, unset variable without
 * default, unknown resolver, cycle) in one message.
 */
export function resolveInterpolations(tree: ConfigMap, options: InterpolationOptions): ConfigMap {
  const resolver = new Resolver(tree, options);
  const out = resolver.resolveAt([]) as ConfigMap;
  resolver.throwIfFailed();
  return out;
}

/** Resolves only the node at `path` (and what it refers to). Same rules and errors as above. */
export function resolveValueAt(tree: ConfigMap, path: KeyPath, options: InterpolationOptions): unknown {
  const resolver = new Resolver(tree, options);
  const out = resolver.resolveAt(path);
  resolver.throwIfFailed();
  return out;
}

class Resolver {
  #root: ConfigMap;
  #options: InterpolationOptions;
  #done = new Map<string, unknown>();
  #active: string[] = [];
  #issues: string[] = [];

  constructor(root: ConfigMap, options: InterpolationOptions) {
    this.#root = root;
    this.#options = options;
  }

  throwIfFailed(): void {
    if (this.#issues.length === 0) return;
    const n = this.#issues.length;
    throw new ConfigInterpolationError(`${n} interpolation${n === 1 ? '' : 's'} could not be resolved:\n${this.#issues.map((i) => `  - ${i}`).join('\n')}`);
  }

  resolveAt(path: KeyPath): unknown {
    const key = formatPath(path);
    if (this.#done.has(key)) return this.#done.get(key);
    const cycleStart = this.#active.indexOf(key);
    if (cycleStart !== -1) {
      const chain = [...this.#active.slice(cycleStart), key].map((k) => k || '<root>').join(' → ');
      this.#fail(path, `interpolation cycle: ${chain}`);
      return FAILED;
    }
    const raw = path.length === 0 ? this.#root : getAt(this.#root, path);
    this.#active.push(key);
    let value: unknown;
    if (typeof raw === 'string') value = this.#resolveString(raw, path);
    else if (Array.isArray(raw)) value = raw.map((_, i) => this.#settle(this.resolveAt([...path, i]), raw[i]));
    else if (isMap(raw)) {
      const out: ConfigMap = {};
      for (const k of Object.keys(raw)) out[k] = this.#settle(this.resolveAt([...path, k]), raw[k]);
      value = out;
    } else value = raw;
    this.#active.pop();
    this.#done.set(key, value);
    return value;
  }

  /** A failed child keeps its raw text in the output; the failure is already recorded. */
  #settle(value: unknown, raw: unknown): unknown {
    return value === FAILED ? raw : value;
  }

  #resolveString(s: string, at: KeyPath): unknown {
    if (!s.includes('${')) return s;
    let parts;
    try {
      parts = parseTemplate(s);
    } catch (err) {
      return this.#fail(at, (err as Error).message);
    }
    const only = parts[0];
    if (parts.length === 1 && only?.kind === 'expr') {
      const v = this.#evaluate(only.body, at);
      return v === FAILED ? FAILED : cloneTree(v);
    }
    let out = '';
    for (const part of parts) {
      if (part.kind === 'text') {
        out += part.text;
        continue;
      }
      const v = this.#evaluate(part.body, at);
      if (v === FAILED) return FAILED;
      if (v === MISSING) return this.#fail(at, `\${${part.body}} refers to a value that is unset (???)`);
      if (typeof v === 'object' && v !== null) {
        return this.#fail(at, `\${${part.body}} is a ${Array.isArray(v) ? 'list' : 'map'} and cannot be embedded in a longer string`);
      }
      out += v === null ? 'null' : String(v);
    }
    return out;
  }

  #evaluate(body: string, at: KeyPath): unknown {
    const expr = parseExpression(body);
    if (expr.kind === 'key') return this.#lookup(expr.key, body, at);
    const args = expr.args.map((a) => this.#argument(a, at));
    if (args.includes(FAILED)) return FAILED;
    if (expr.name === 'oc.env') return this.#env(args, body, at);
    if (expr.name === 'copy' && typeof args[0] === 'string') return this.#lookup(args[0], body, at);
    return this.#fail(at, `\${${body}} uses an unknown resolver '${expr.name}'; supported: ${RESOLVERS.join(', ')}`);
  }

  #argument(arg: string, at: KeyPath): unknown {
    const quoted = /^(['"])([\s\S]*)\1$/.exec(arg);
    const text = quoted ? quoted[2]! : arg;
    if (!quoted && arg === 'null') return null;
    return hasInterpolation(text) ? this.#resolveString(text, at) : text.replaceAll('\\${', '${');
  }

  #env(args: unknown[], body: string, at: KeyPath): unknown {
    const name = args[0];
    if (typeof name !== 'string' || name === '' || args.length > 2) {
      return this.#fail(at, `\${${body}}: write \${oc.env:VAR} or \${oc.env:VAR,default}`);
    }
    const value = this.#options.env[name];
    if (value !== undefined) return value;
    // Defaults are strings (or null), like OmegaConf's oc.env.
    if (args.length === 2) return args[1] === null ? null : String(args[1]);
    return this.#fail(at, `environment variable ${name} is not set and \${${body}} has no default; set ${name} or write \${oc.env:${name},<default>}`);
  }

  #lookup(key: string, body: string, at: KeyPath): unknown {
    const segs = parseKeyPath(key, at);
    if (segs === undefined) return this.#fail(at, `\${${body}}: '${key}' is not a valid key path`);
    let node: unknown = this.#root;
    const concrete: (string | number)[] = [];
    for (const [i, seg] of segs.entries()) {
      if (typeof node === 'string' && hasInterpolation(node)) {
        // The prefix is itself an interpolation: resolve it, then descend in its value.
        const base = this.resolveAt(concrete);
        if (base === FAILED) return FAILED;
        const v = descend(base, segs.slice(i));
        return v === undefined ? this.#unknownKey(key, body, at, segs, i) : v;
      }
      const step = Array.isArray(node) && /^\d+$/.test(String(seg)) ? Number(seg) : seg;
      const next = descend(node, [step]);
      if (next === undefined) return this.#unknownKey(key, body, at, segs, i, node);
      concrete.push(step);
      node = next;
    }
    return this.resolveAt(concrete);
  }

  #unknownKey(key: string, body: string, at: KeyPath, segs: (string | number)[], i: number, parent?: unknown): typeof FAILED {
    const near = isMap(parent) ? closeMatches(String(segs[i]), Object.keys(parent)) : [];
    const hint = near.length > 0 ? `; did you mean ${near.map((n) => `'${formatPath([...segs.slice(0, i), n])}'`).join(' or ')}?` : '';
    return this.#fail(at, `\${${body}} refers to '${key}', which is not in the merged config${hint}`);
  }

  #fail(at: KeyPath, problem: string): typeof FAILED {
    const where = formatPath(at) || '<root>';
    this.#issues.push(`${where}${this.#options.provenance?.describe(at) ?? ''}: ${problem}`);
    return FAILED;
  }
}

/** Like `getAt`, but a numeric string indexes a list (`a.0` as well as `a[0]`). */
function descend(node: unknown, segs: readonly (string | number)[]): unknown {
  let cur = node;
  for (const seg of segs) {
    const step = Array.isArray(cur) && /^\d+$/.test(String(seg)) ? Number(seg) : seg;
    cur = getAt(cur, [step]);
    if (cur === undefined) return undefined;
  }
  return cur;
}

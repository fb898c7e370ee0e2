/**
 * Parsing Hydra-style CLI overrides: `+key=value`, `++key=value`, `key=value`, `~key`.
 * @module
 */
import { parse as parseYaml } from 'yaml';
import { ConfigOverrideError } from './errors.js';

/** `add` = `+k=v`, `force` = `++k=v`, `set` = `k=v`, `delete` = `~k`. */
export type OverrideOp = 'add' | 'force' | 'set' | 'delete';

/** One parsed override. */
export interface ConfigOverride {
  op: OverrideOp;
  /** Dotted key split into segments. */
  path: string[];
  /** The value parsed as YAML (`undefined` for `delete`). */
  value: unknown;
  /** The token as written, for error messages. */
  text: string;
}

const SEGMENT = /^[\w\-@/]+$/;
const NULL_WORDS = new Set(['null', 'Null', 'NULL', '~']);

/**
 * Parses one override token. Values are YAML: `3` → number, `true` → boolean, `[a,b]` → list,
 * `{a:1}` → map (a space after `:` is optional), `null` → null, empty → `''`; anything that
 * YAML would read as a block map or list stays a plain string.
 * @throws {ConfigOverrideError} naming the token and the expected form.
 */
export function parseOverride(text: string): ConfigOverride {
  const m = /^(\+\+|\+|~)?([^=]*)(?:=([\s\S]*))?$/.exec(text);
  const prefix = m?.[1] ?? '';
  const key = m?.[2] ?? '';
  const raw = m?.[3];
  const op: OverrideOp = prefix === '++' ? 'force' : prefix === '+' ? 'add' : prefix === '~' ? 'delete' : 'set';
  const path = key.split('.');
  if (key === '' || !path.every((seg) => SEGMENT.test(seg))) {
    const why = key.startsWith('+') ? 'use + or ++, not more' : 'keys are dotted names like a.b_c';
    throw bad(text, why);
  }
  if (op === 'delete') {
    if (raw !== undefined) throw bad(text, '~key deletes a key and takes no value');
    return { op, path, value: undefined, text };
  }
  if (raw === undefined) throw bad(text, 'missing "=value"');
  return { op, path, value: parseOverrideValue(raw, text), text };
}

/**
 * Parses every token, reporting all malformed ones in one error.
 * @throws {ConfigOverrideError}
 */
export function parseOverrides(texts: readonly string[]): ConfigOverride[] {
  const out: ConfigOverride[] = [];
  const errors: string[] = [];
  for (const text of texts) {
    try {
      out.push(parseOverride(text));
    } catch (err) {
      if (!(err instanceof ConfigOverrideError)) throw err;
      errors.push(err.message);
    }
  }
  if (errors.length === 1) throw new ConfigOverrideError(errors[0]!);
  if (errors.length > 1) throw new ConfigOverrideError(`${errors.length} bad overrides:\n${errors.map((e) => `  - ${e}`).join('\n')}`);
  return out;
}

/** Parses an override value as YAML; see {@link parseOverride}. */
export function parseOverrideValue(raw: string, text = raw): unknown {
  if (raw === '') return '';
  const trimmed = raw.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    try {
      // Hydra accepts {a:1}; YAML needs {a: 1}. Only a key right after { or , gets the space.
      return parseYaml(trimmed.replace(/([{,]\s*)([\w\-.@/]+):(?=\S)/g, '$1$2: '));
    } catch (err) {
      throw bad(text, `the value is not a valid YAML list or map (${(err as Error).message.split('\n')[0]})`);
    }
  }
  let value: unknown;
  try {
    value = parseYaml(raw);
  } catch {
    return raw;
  }
  if (value === null) return NULL_WORDS.has(trimmed) ? null : raw;
  return typeof value === 'object' ? raw : value;
}

function bad(text: string, why: string): ConfigOverrideError {
  return new ConfigOverrideError(`Bad override '${text}': ${why}. Expected +key=value (add), ++key=value (add or replace), key=value (replace an existing key) or ~key (delete).`);
}

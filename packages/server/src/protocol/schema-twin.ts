/**
 * Plain-code twins of zod schemas. A twin takes a value and, when its schema accepts it (every
 * body on the hot path), returns what the schema's `parse` would — the value itself, or the same
 * copy with the keys in the same order — without running zod; otherwise it returns
 * {@link UNDECIDED}, and zod runs to say what is wrong. `addJsonRoute` and {@link quickSafeParse}
 * ask a schema's twin first. A twin belongs to one schema object: `.extend()` and the like make a
 * schema without one.
 * @module
 */
import type { z } from 'zod';
import { isJsonObject } from './json.js';

/** A twin's answer when zod has to decide. */
export const UNDECIDED: unique symbol = Symbol('undecided');

/** What `parse` returns for a value the schema accepts, or {@link UNDECIDED}. */
export type SchemaTwin = (value: unknown) => unknown;

const TWINS = new WeakMap<z.ZodType, SchemaTwin>();

/** Gives `schema` its twin; returns `schema`. */
export function withTwin<S extends z.ZodType>(schema: S, twin: SchemaTwin): S {
  TWINS.set(schema, twin);
  return schema;
}

/** The twin of `schema`, if it has one. */
export function twinOf(schema: z.ZodType): SchemaTwin | undefined {
  return TWINS.get(schema);
}

/** `schema.safeParse(value)`, answered by the schema's twin when it can vouch for `value`. */
export function quickSafeParse<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const twin = TWINS.get(schema);
  const quick = twin === undefined ? UNDECIDED : twin(value);
  return quick === UNDECIDED ? schema.safeParse(value) : { success: true, data: quick as z.output<S> };
}

/**
 * What a `z.looseObject` whose fields all accept `value` returns: a copy with the `fields` first,
 * in the schema's order, then the other keys in the value's. {@link UNDECIDED} for a `__proto__`
 * key (zod leaves it out) or a missing field.
 */
export function looseObjectCopy(value: Record<string, unknown>, fields: readonly string[]): unknown {
  const copy: Record<string, unknown> = {};
  for (const field of fields) {
    if (!Object.hasOwn(value, field)) return UNDECIDED;
    copy[field] = value[field];
  }
  for (const key in value) {
    if (key === '__proto__') return UNDECIDED;
    if (!fields.includes(key)) copy[key] = value[key];
  }
  return copy;
}

/** The twin of `z.looseObject({})`: any object, copied. */
export function anyObjectTwin(value: unknown): unknown {
  return isJsonObject(value) ? looseObjectCopy(value, []) : UNDECIDED;
}

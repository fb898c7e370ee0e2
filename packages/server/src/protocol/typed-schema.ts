/**
 * A zod schema whose output is a protocol type: `check` validates what gym reads (so a wrong value
 * is a 422 naming its field), while the declared type is the whole wire shape the original's
 * pydantic models (and `openai`'s types) describe. The value passes through uncopied.
 * A `quick` predicate, true exactly when `check` accepts, skips zod for valid values (every
 * request on the hot path); `check` then runs only to say what is wrong.
 * @module
 */
import { z } from 'zod';
import { UNDECIDED, withTwin } from './schema-twin.js';

/** `check`'s verdict, typed as `T`; with `quick`, the schema's twin (schema-twin.ts) is `quick` too. */
export function typedSchema<T>(check: z.ZodType, quick?: (value: unknown) => boolean): z.ZodType<T> {
  const schema = z.custom<T>().superRefine((value, ctx) => {
    if (quick?.(value) === true) return;
    const parsed = check.safeParse(value);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue(issue as z.core.$ZodRawIssue);
  });
  return quick === undefined ? schema : withTwin(schema, (value) => (quick(value) ? value : UNDECIDED));
}

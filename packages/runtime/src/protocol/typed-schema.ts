/**
 * A zod schema whose output is a protocol type: `check` validates what gym reads (so a wrong value
 * is a 422 naming its field), while the declared type is the whole wire shape the original's
 * pydantic models (and `openai`'s types) describe. The value passes through uncopied.
 * @module
 */
import { z } from 'zod';

/** `check`'s verdict, typed as `T`. */
export function typedSchema<T>(check: z.ZodType): z.ZodType<T> {
  return z.custom<T>().superRefine((value, ctx) => {
    const parsed = check.safeParse(value);
    if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue(issue as z.core.$ZodRawIssue);
  });
}

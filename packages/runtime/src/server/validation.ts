/**
 * zod issues → FastAPI's 422 body `{"detail":[{"loc":["body",…],"msg":…,"type":…}]}`, with
 * pydantic's type names and messages for the common cases, since users' tools parse them.
 * @module
 */
import type { z } from 'zod';

/** One entry of a FastAPI validation error body. */
export interface ValidationDetail {
  loc: (string | number)[];
  msg: string;
  type: string;
}

const TYPE_NAMES: Record<string, [type: string, msg: string]> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  int: ['int_type', 'Input should be a valid integer'],
  boolean: ['bool_type', 'Input should be a valid boolean'],
  object: ['dict_type', 'Input should be a valid dictionary'],
  array: ['list_type', 'Input should be a valid list'],
};

/** Maps the issues of a failed `safeParse(body, { reportInput: true })` to FastAPI detail entries. */
export function toValidationDetail(issues: readonly z.core.$ZodIssue[]): ValidationDetail[] {
  const detail: ValidationDetail[] = [];
  for (const issue of issues) {
    const loc: (string | number)[] = ['body', ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) detail.push({ loc: [...loc, key], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' });
    } else if (issue.code === 'invalid_type' && 'input' in issue && issue.input === undefined) {
      detail.push({ loc, msg: 'Field required', type: 'missing' });
    } else if (issue.code === 'invalid_type') {
      const [type, msg] = TYPE_NAMES[issue.expected] ?? [`${issue.expected}_type`, issue.message];
      detail.push({ loc, msg, type });
    } else {
      detail.push({ loc, msg: issue.message, type: issue.code === 'custom' ? 'value_error' : issue.code });
    }
  }
  return detail;
}

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

/**
 * Maps the issues of a failed `safeParse(body, { reportInput: true })` to FastAPI detail entries,
 * their `loc` starting with `prefix`.
 */
export function toValidationDetail(issues: readonly z.core.$ZodIssue[], prefix: readonly (string | number)[] = ['body']): ValidationDetail[] {
  const detail: ValidationDetail[] = [];
  for (const issue of issues) {
    const loc: (string | number)[] = [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      // the branch that got past the outer type (a list whose item is wrong) says what is wrong;
      // when none did, each branch's expectation is listed, as pydantic lists union members
      const deeper = issue.errors.find((branch) => branch.length > 0 && branch.every((i) => i.path.length > 0));
      for (const branch of deeper === undefined ? issue.errors : [deeper]) detail.push(...toValidationDetail(branch, loc));
    } else if (issue.code === 'unrecognized_keys') {
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

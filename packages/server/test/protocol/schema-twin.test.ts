import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { quickSafeParse, twinOf, UNDECIDED } from '../../src/protocol/schema-twin.js';
import { RESPONSES_CREATE_PARAMS, RESPONSES_RESULT } from '../../src/protocol/responses.js';
import { VERIFY_REQUEST, VERIFY_RESPONSE } from '../../src/protocol/verify.js';
import { RUN_REQUEST, AGENT_RESPONSES_REQUEST } from '../../src/server/agent-server.js';
import { MODEL_REQUEST } from '../../src/server/model-server.js';
import { SEED_SESSION_REQUEST } from '../../src/server/resources-server.js';
import { acceptingStream } from '../../src/server/streamed-requests.js';
import { RESPONSES_REQUEST } from '../../src/server/responses-request.js';
import type { z } from 'zod';

const RESPONSE = {
  id: 'resp_1',
  output: [
    { type: 'message', role: 'assistant', content: [] },
    { type: 'function_call', name: 'f', arguments: '{}', call_id: 'c' },
  ],
};
const PARAMS = { input: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', name: 'f' }] };
const ROW = { task: 'x', responses_create_params: PARAMS, _ng_task_index: 1, response: RESPONSE };

/** Valid and invalid values of every kind the twins see: objects with fields moved, missing, of another type. */
const VALUES: unknown[] = [
  null,
  undefined,
  'x',
  1,
  [],
  [ROW],
  {},
  { '1': 'numeric key', b: 2 },
  { toString: 'own key named like a prototype member', responses_create_params: {}, response: { output: [] } },
  JSON.parse('{"__proto__": {"polluted": true}, "responses_create_params": {}, "response": {"output": []}}') as unknown,
  ROW,
  { ...ROW, reward: 1 },
  { a: 1, ...ROW, reward: 0.5, z: 2 },
  { reward: 1, ...ROW },
  { ...ROW, reward: '1' },
  { ...ROW, reward: Number.NaN },
  { ...ROW, reward: Number.POSITIVE_INFINITY },
  { ...ROW, responses_create_params: [] },
  { ...ROW, responses_create_params: null },
  { ...ROW, response: { output: [{ role: 'assistant' }] } },
  { ...ROW, response: { output: 'x' } },
  { ...ROW, response: null },
  { responses_create_params: PARAMS },
  { response: RESPONSE },
  RESPONSE,
  { output: [] },
  { output: [null] },
  PARAMS,
  { ...PARAMS, stream: true },
  { ...PARAMS, stream: false, model: 'm' },
  { ...PARAMS, temperature: 'hot' },
  { input: 'hi', extra: 1 },
  { input: [{ type: 'function_call_output', call_id: 'c', output: 'o' }] },
];

const SCHEMAS: Record<string, z.ZodType> = {
  RESPONSES_CREATE_PARAMS,
  RESPONSES_RESULT,
  VERIFY_REQUEST,
  VERIFY_RESPONSE,
  RUN_REQUEST,
  AGENT_RESPONSES_REQUEST,
  MODEL_REQUEST,
  SEED_SESSION_REQUEST,
  'acceptingStream(RESPONSES_REQUEST)': acceptingStream(RESPONSES_REQUEST),
};

describe('schema twins', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`${name}: answers only what zod accepts, with zod's value, keys in zod's order and shared where zod shares`, () => {
      const twin = twinOf(schema);
      assert.ok(twin !== undefined, `${name} has a twin`);
      let vouched = 0;
      for (const value of VALUES) {
        const zod = schema.safeParse(value);
        const quick = twin(value);
        const label = `${name} ${JSON.stringify(value)}`;
        if (quick === UNDECIDED) {
          // an undecided valid value only costs zod's time; the twins decide every valid one but a
          // `__proto__` key and a streamed request (zod leaves out the one and remembers the other)
          if (zod.success) assert.ok(typeof value === 'object' && value !== null && (Object.hasOwn(value, '__proto__') || (value as Record<string, unknown>)['stream'] === true), label);
          continue;
        }
        vouched++;
        assert.ok(zod.success, label);
        assert.deepEqual(quick, zod.data, label);
        assert.deepEqual(Object.keys(quick as object), Object.keys(zod.data as object), label);
        assert.equal(quick === value, zod.data === value, `${label}: copied as zod copies`);
        for (const key of Object.keys(zod.data as object)) {
          const a: unknown = (quick as Record<string, unknown>)[key];
          const b: unknown = (zod.data as Record<string, unknown>)[key];
          assert.equal(a === (value as Record<string, unknown>)[key], b === (value as Record<string, unknown>)[key], `${label}: ${key}`);
        }
      }
      assert.ok(vouched > 0, `${name}'s twin vouched for a value`);
    });
  }

  it('quickSafeParse answers as safeParse does, errors from zod', () => {
    assert.deepEqual(quickSafeParse(VERIFY_RESPONSE, { ...ROW, reward: 1 }), VERIFY_RESPONSE.safeParse({ ...ROW, reward: 1 }));
    const bad = quickSafeParse(VERIFY_RESPONSE, { ...ROW, reward: '1' });
    assert.equal(bad.success, false);
    assert.deepEqual(
      bad.error?.issues.map((i) => i.path.join('.')),
      ['reward'],
    );
    // a schema without a twin is zod's alone
    assert.equal(twinOf(VERIFY_REQUEST.extend({})), undefined);
  });
});

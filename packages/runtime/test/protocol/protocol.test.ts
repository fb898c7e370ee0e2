// The protocol schemas: what each accepts and refuses, with the paths a 422 or a skipped input
// line names; and collection reading its input through them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RAW_TASK_ROW, RESPONSES_RESULT, TASK_ROW, VERIFY_REQUEST, VERIFY_RESPONSE } from '../../../server/src/protocol/index.js';
import { parseInputRows } from '../../src/rollouts/input-rows.js';
import type { z } from 'zod';

const PARAMS = { input: 'hi' };
const RESPONSE = { output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'x' }] }] };

function issues(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.path.join('.'));
}

describe('protocol schemas', () => {
  it('TASK_ROW: create params required; agent_ref and indices checked only when present; task fields pass', () => {
    assert.deepEqual(issues(TASK_ROW, { responses_create_params: PARAMS, expected_answer: 'A' }), []);
    assert.deepEqual(issues(TASK_ROW, { responses_create_params: PARAMS, agent_ref: { type: 'responses_api_agents', name: 'a' }, _ng_task_index: 0, _ng_rollout_index: 2 }), []);
    assert.deepEqual(issues(TASK_ROW, { expected_answer: 'A' }), ['responses_create_params']);
    assert.deepEqual(issues(TASK_ROW, { responses_create_params: PARAMS, agent_ref: { type: 'x' } }), ['agent_ref.name']);
    assert.deepEqual(issues(TASK_ROW, { responses_create_params: PARAMS, _ng_task_index: '3', _ng_rollout_index: -1 }), ['_ng_task_index', '_ng_rollout_index']);
    assert.deepEqual(issues(RAW_TASK_ROW, { question: 'q' }), [], 'a prompt config builds the params of a raw row');
  });

  it('the parsed value is the row itself, extra fields and all (nothing copied or dropped)', () => {
    const row = { responses_create_params: { input: 'hi', provider_extra: { a: 1 } }, expected_answer: 'A' };
    const parsed = TASK_ROW.parse(row);
    assert.equal(parsed.responses_create_params, row.responses_create_params);
    assert.equal(parsed['expected_answer'], 'A');
  });

  it('VERIFY_REQUEST / VERIFY_RESPONSE: output items carry their type; a verify response carries a numeric reward', () => {
    assert.deepEqual(issues(VERIFY_REQUEST, { responses_create_params: PARAMS, response: RESPONSE }), []);
    assert.deepEqual(issues(VERIFY_REQUEST, { responses_create_params: PARAMS, response: { output: [{ role: 'assistant' }] } }), ['response.output.0.type']);
    assert.deepEqual(issues(VERIFY_RESPONSE, { responses_create_params: PARAMS, response: RESPONSE, reward: 0.5, judge: 'x' }), []);
    assert.deepEqual(issues(VERIFY_RESPONSE, { responses_create_params: PARAMS, response: RESPONSE, reward: '1' }), ['reward']);
    assert.deepEqual(issues(RESPONSES_RESULT, { id: 'resp_1' }), ['output']);
  });
});

describe('collection reads task rows through TASK_ROW', () => {
  it('skips a line whose collector keys have the wrong type, naming the field and the line', () => {
    const text = [
      JSON.stringify({ responses_create_params: PARAMS }),
      JSON.stringify({ responses_create_params: PARAMS, _ng_task_index: 'three' }),
      JSON.stringify({ responses_create_params: PARAMS, agent_ref: 'simple_agent' }),
    ].join('\n');
    const { rows, malformed } = parseInputRows(text, 'in.jsonl');
    assert.deepEqual(
      rows.map((r) => r.lineNumber),
      [1],
    );
    assert.deepEqual(
      malformed.map((m) => m.lineNumber),
      [2, 3],
    );
    assert.match(malformed[0]!.reason, /^_ng_task_index: /);
    assert.match(malformed[1]!.reason, /^agent_ref: /);
  });
});

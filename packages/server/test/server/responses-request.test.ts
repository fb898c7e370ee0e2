// The plain-code item and tool checks gate the zod shapes on the hot path: they must agree exactly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  isValidInputItem,
  isValidResponsesRequest,
  parsedResponsesRequest,
  isValidTool,
  ITEM_SHAPES,
  RESPONSES_REQUEST,
  RESPONSES_REQUEST_FIELDS,
  TOOL_SHAPES,
} from '../../src/server/responses-request.js';

const ODD: unknown[] = [
  undefined,
  null,
  0,
  1.5,
  -3,
  true,
  '',
  'x',
  [],
  [1],
  [1.5],
  ['a'],
  [null],
  [{}],
  [{ type: 'input_text' }],
  [{ type: 'input_text', text: 1 }],
  [{ type: 'summary_text', text: 't' }],
  [{ role: 'user', content: 'hi' }],
  [{ type: 'function', name: 'f' }],
  ['a', 1],
  2 ** 60,
  Number.MAX_SAFE_INTEGER,
  false,
  {},
  { k: 'v' },
  { k: 1 },
  { type: 'object' },
];
const ITEMS: Record<string, unknown>[] = [
  { role: 'user', content: 'hi' },
  { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'a' }], status: 'completed', prompt_token_ids: [1, 2], generation_token_ids: [3], generation_log_probs: [-0.5] },
  { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}', id: 'fc', status: 'completed' },
  { type: 'function_call_output', call_id: 'c', output: 'out' },
  { type: 'reasoning', summary: [{ type: 'summary_text', text: 's' }], encrypted_content: null },
  { type: 'web_search_call', id: 'w' },
];
const TOOLS: Record<string, unknown>[] = [{ type: 'function', name: 'f', parameters: { type: 'object' }, strict: true, description: 'd' }, { type: 'web_search' }];

/** Every item with one field (known or not) replaced by each odd value. */
function* variants(bases: Record<string, unknown>[]): Generator<Record<string, unknown>> {
  for (const base of bases) {
    yield base;
    for (const key of [...Object.keys(base), 'role', 'content', 'status', 'prompt_token_ids', 'generation_log_probs', 'parameters', 'strict', 'name']) {
      for (const value of ODD) yield { ...base, [key]: value };
    }
  }
}

function zodAccepts(shapes: Readonly<Record<string, { safeParse(v: unknown): { success: boolean } }>>, kind: unknown, value: unknown): boolean {
  if (typeof kind !== 'string') return false;
  const shape = shapes[kind];
  return shape === undefined || shape.safeParse(value).success;
}

describe('the fast item and tool checks', () => {
  it('accept exactly what the zod shapes accept', () => {
    let checked = 0;
    for (const item of variants(ITEMS)) {
      const kind = item['type'] === undefined ? 'message' : item['type'];
      assert.equal(isValidInputItem(item), zodAccepts(ITEM_SHAPES, kind, item), JSON.stringify(item));
      checked++;
    }
    for (const tool of variants(TOOLS)) {
      assert.equal(isValidTool(tool), zodAccepts(TOOL_SHAPES, tool['type'], tool), JSON.stringify(tool));
      checked++;
    }
    assert.ok(checked > 500);
  });
});

describe('the fast Responses request check', () => {
  it('accepts exactly what RESPONSES_REQUEST accepts', () => {
    const base = {
      extra_first: { a: 1 },
      input: [ITEMS[0], ITEMS[2], ITEMS[3]],
      tools: TOOLS,
      model: 'm',
      temperature: 0.5,
      metadata: { a: 'b' },
      reasoning: { effort: 'low' },
      tool_choice: { type: 'function', name: 'f' },
      include: ['x'],
      stream: false,
      extra_field: 1,
    };
    let checked = 0;
    for (const body of [base, { input: 'hi' }, {}, null, [], 'x', ...variantsOf(base, Object.keys(RESPONSES_REQUEST_FIELDS))]) {
      const zod = RESPONSES_REQUEST.safeParse(body);
      assert.equal(isValidResponsesRequest(body), zod.success, JSON.stringify(body));
      // the same fields in the same order, copied where zod copies
      if (zod.success) {
        const parsed = parsedResponsesRequest(body as Record<string, unknown>);
        assert.equal(JSON.stringify(parsed), JSON.stringify(zod.data));
        for (const key of Object.keys(zod.data)) assert.equal(parsed[key] === (body as Record<string, unknown>)[key], zod.data[key] === (body as Record<string, unknown>)[key], key);
      }
      checked++;
    }
    assert.ok(checked > 300);
  });
});

/** `base` with each of `keys` replaced by each odd value. */
function* variantsOf(base: Record<string, unknown>, keys: string[]): Generator<Record<string, unknown>> {
  for (const key of keys) for (const value of ODD) yield { ...base, [key]: value };
}

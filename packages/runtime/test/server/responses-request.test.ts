// The plain-code item and tool checks gate the zod shapes on the hot path: they must agree exactly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isValidInputItem, isValidTool, ITEM_SHAPES, TOOL_SHAPES } from '../../src/server/responses-request.js';

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
  {},
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

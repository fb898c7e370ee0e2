import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chatToResponse } from '../chat-to-responses.js';
import { foldReplyReasoning } from '../reasoning.js';
import * as fx from './fixtures.js';
import type { ModelResponsesParams } from '@gym/server';

type Json = Record<string, unknown>;
const OPTS = { usesReasoningParser: true, returnTokenIdInformation: false, model: 'Qwen/Qwen3-8B' };
const REQUEST = { input: 'q' } as ModelResponsesParams;

/** The post-processing the pipeline does before conversion: reasoning fields → `<think>`. */
function convert(completion: Json, options = OPTS, request = REQUEST): Json {
  const message = (completion['choices'] as Json[])[0]!['message'] as Json;
  foldReplyReasoning(message, options.usesReasoningParser, 'policy_model');
  return chatToResponse(completion, request, options);
}
const output = (response: Json) => response['output'] as Json[];

describe('chatToResponse', () => {
  it('makes an assistant message with a msg_ id, a resp_ id and mapped usage', () => {
    const response = convert(fx.plainText());
    assert.match(String(response['id']), /^resp_[0-9a-f]{32}$/);
    assert.equal(response['object'], 'response');
    assert.equal(response['status'], 'completed');
    assert.equal(response['incomplete_details'], null);
    assert.equal(response['model'], 'Qwen/Qwen3-8B');
    assert.equal(response['created_at'], 1_751_000_000);
    const [message] = output(response);
    assert.match(String(message!['id']), /^msg_[0-9a-f]{32}$/);
    assert.deepEqual(
      { ...message, id: 'x' },
      { id: 'x', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Paris is the capital of France.', annotations: [] }] },
    );
    assert.deepEqual(response['usage'], { input_tokens: 231, input_tokens_details: { cached_tokens: 192 }, output_tokens: 31, output_tokens_details: { reasoning_tokens: 18 }, total_tokens: 262 });
  });

  it('turns tool calls into function_call items with call_id = id = the tool call id', () => {
    assert.deepEqual(output(convert(fx.toolCall())), [
      { type: 'function_call', id: 'chatcmpl-tool-5f2e9d', call_id: 'chatcmpl-tool-5f2e9d', name: 'get_weather', arguments: '{"city": "Paris"}', status: 'completed' },
    ]);
  });

  it('turns reasoning_content into a reasoning item before the message and the call', () => {
    const items = output(convert(fx.reasoningContent()));
    assert.deepEqual(
      items.map((i) => i['type']),
      ['reasoning', 'message', 'function_call'],
    );
    assert.match(String(items[0]!['id']), /^rs_[0-9a-f]{32}$/);
    assert.deepEqual(items[0]!['summary'], [{ type: 'summary_text', text: 'The user wants the weather; call the tool.' }]);
    assert.equal((items[1]!['content'] as Json[])[0]!['text'], 'Let me check.');
  });

  it('reads the `reasoning` field of vLLM 0.16 and inline <think> tags alike', () => {
    assert.deepEqual(output(convert(fx.reasoningField()))[0]!['summary'], [{ type: 'summary_text', text: '2 + 2 = 4' }]);
    const items = output(convert(fx.thinkTags()));
    assert.deepEqual(items[0]!['summary'], [{ type: 'summary_text', text: 'Short question.' }]);
    assert.equal((items[1]!['content'] as Json[])[0]!['text'], 'Yes.');
  });

  it('leaves <think> in the text when no reasoning parser is configured', () => {
    const items = output(convert(fx.thinkTags(), { ...OPTS, usesReasoningParser: false }));
    assert.deepEqual(
      items.map((i) => i['type']),
      ['message'],
    );
    assert.equal((items[0]!['content'] as Json[])[0]!['text'], '<think>Short question.</think>Yes.');
  });

  it('fails when vLLM returns reasoning but no reasoning parser is configured', () => {
    assert.throws(() => convert(fx.reasoningField(), { ...OPTS, usesReasoningParser: false }), { code: 'GYM_MODEL_BAD_REPLY', message: /uses_reasoning_parser: false/ });
  });

  it('maps finish_reason length to incomplete max_output_tokens', () => {
    const response = convert(fx.lengthCutOff());
    assert.equal(response['status'], 'incomplete');
    assert.deepEqual(response['incomplete_details'], { reason: 'max_output_tokens' });
    assert.equal((output(response)[0]!['content'] as Json[])[0]!['text'], 'The history of Rome begins');
  });

  it('maps finish_reason content_filter to incomplete content_filter with an empty message', () => {
    const response = convert(fx.contentFilter());
    assert.deepEqual([response['status'], response['incomplete_details']], ['incomplete', { reason: 'content_filter' }]);
    assert.deepEqual((output(response)[0]!['content'] as Json[])[0], { type: 'output_text', text: '', annotations: [] });
  });

  it('puts token ids on the last output item only', () => {
    const ids = { prompt_token_ids: [1], generation_token_ids: [2, 3], generation_log_probs: [-0.5, -0.1], routed_experts: 'envelope' };
    const completion = fx.reasoningContent();
    Object.assign((completion['choices'] as Json[])[0]!['message'] as Json, ids);
    const items = output(convert(completion, { ...OPTS, returnTokenIdInformation: true }));
    assert.deepEqual(
      items.map((i) => 'prompt_token_ids' in i),
      [false, false, true],
    );
    assert.deepEqual(items[2], { ...items[2], ...ids });
  });

  it('echoes the request parameters with defaults', () => {
    const request = {
      input: 'q',
      instructions: 'Be brief.',
      temperature: 0.2,
      tools: [{ type: 'function', name: 'f' }],
      tool_choice: 'required',
      metadata: { a: 'b' },
      max_output_tokens: 9,
    } as ModelResponsesParams;
    const r = convert(fx.plainText(), OPTS, request);
    assert.deepEqual(
      [r['instructions'], r['temperature'], r['top_p'], r['tools'], r['tool_choice'], r['metadata'], r['max_output_tokens'], r['parallel_tool_calls'], r['truncation'], r['text']],
      ['Be brief.', 0.2, null, request.tools, 'required', { a: 'b' }, 9, true, 'disabled', { format: { type: 'text' } }],
    );
  });

  it('answers usage null when vLLM reported none', () => {
    const completion = fx.plainText();
    delete completion['usage'];
    assert.equal(convert(completion)['usage'], null);
  });
});

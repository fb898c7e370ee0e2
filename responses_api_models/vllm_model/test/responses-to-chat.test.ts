import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { responsesToChat } from '../responses-to-chat.js';
import type { ModelResponsesParams } from '@gym/server';

const convert = (params: Record<string, unknown>, carryTokenIds = false) => responsesToChat(params as ModelResponsesParams, { carryTokenIds });
const messagesOf = (params: Record<string, unknown>, carry = false) => convert(params, carry)['messages'] as Array<Record<string, unknown>>;

describe('responsesToChat: input items', () => {
  it('turns a string input into one user message with a text part', () => {
    assert.deepEqual(messagesOf({ input: 'Hi' }), [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  it('keeps string contents and maps user, system and developer roles', () => {
    const input = [
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: 'Use tools.' },
      { type: 'message', role: 'user', content: 'Weather?' },
    ];
    assert.deepEqual(messagesOf({ input }), [
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: 'Use tools.' },
      { role: 'user', content: 'Weather?' },
    ]);
  });

  it('converts input_text, input_image and input_video parts', () => {
    const content = [
      { type: 'input_text', text: 'What is this?' },
      { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
      { type: 'input_image', image_url: 'https://x/y.png', detail: 'high' },
      { type: 'input_video', video_url: 'https://x/v.mp4' },
    ];
    assert.deepEqual(messagesOf({ input: [{ role: 'user', content }] }), [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'auto' } },
          { type: 'image_url', image_url: { url: 'https://x/y.png', detail: 'high' } },
          { type: 'video_url', video_url: { url: 'https://x/v.mp4' } },
        ],
      },
    ]);
  });

  it('buffers reasoning, assistant text and function calls into one assistant message', () => {
    const input = [
      { role: 'user', content: 'Weather in Paris?' },
      { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Need the tool.' }] },
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
      { type: 'function_call', call_id: 'call_2', name: 'get_time', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"weather":"cold"}' },
      { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '12:00' }] },
    ];
    assert.deepEqual(messagesOf({ input }), [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: '<think>Need the tool.</think>Checking.',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"weather":"cold"}' },
      { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '12:00' }] },
    ]);
  });

  it('sends a tool-call-only turn with null content', () => {
    const input = [
      { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      { role: 'user', content: 'next' },
    ];
    assert.deepEqual(messagesOf({ input })[0], { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] });
  });

  it('carries token ids of the last item onto the flushed assistant message in training mode', () => {
    const ids = { prompt_token_ids: [1, 2], generation_token_ids: [3, 4], generation_log_probs: [-0.1, -0.2] };
    const input = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a1', ...ids },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: 'a2 (no ids)' },
    ];
    const messages = messagesOf({ input }, true);
    assert.deepEqual(messages[1], { role: 'assistant', content: 'a1', ...ids });
    assert.deepEqual(messages[3], { role: 'assistant', content: 'a2 (no ids)' });
    assert.deepEqual(messagesOf({ input }, false)[1], { role: 'assistant', content: 'a1' });
  });

  it('rejects partial training fields on an input item', () => {
    const input = [{ role: 'assistant', content: 'a', prompt_token_ids: [1] }];
    assert.throws(() => convert({ input }, true), { code: 'GYM_MODEL_UNSUPPORTED_INPUT', statusCode: 400, message: /input\[0\]\.generation_token_ids/ });
  });

  it('rejects item types without a chat equivalent, naming the item', () => {
    assert.throws(
      () =>
        convert({
          input: [
            { role: 'user', content: 'x' },
            { type: 'web_search_call', id: 'ws' },
          ],
        }),
      { statusCode: 400, message: /input\[1\]: item type 'web_search_call'/ },
    );
    assert.throws(() => convert({ input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] }), { message: /input\[0\]\.content\[0\]: content part type 'input_file'/ });
  });
});

describe('responsesToChat: instructions and parameters', () => {
  it('folds instructions and leading system/developer messages into one system message', () => {
    const input = [
      { role: 'system', content: 'Sys.' },
      { role: 'developer', content: [{ type: 'input_text', text: 'Dev.' }] },
      { role: 'user', content: 'Hi' },
    ];
    assert.deepEqual(messagesOf({ input, instructions: 'Inst.' }), [
      { role: 'system', content: 'Inst.\n\nSys.\n\nDev.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('maps max_output_tokens, reasoning.effort, text.format and passes sampling fields', () => {
    const chat = convert({
      input: 'x',
      model: 'm',
      max_output_tokens: 64,
      temperature: 0.6,
      top_p: 0.95,
      top_logprobs: 2,
      metadata: { k: 'v' },
      user: 'u',
      reasoning: { effort: 'low', summary: 'auto' },
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
      truncation: 'disabled',
      include: ['reasoning.encrypted_content'],
      stream: false,
    });
    const { messages: _messages, ...rest } = chat;
    assert.deepEqual(rest, {
      model: 'm',
      max_tokens: 64,
      temperature: 0.6,
      top_p: 0.95,
      top_logprobs: 2,
      metadata: { k: 'v' },
      user: 'u',
      reasoning_effort: 'low',
      response_format: { type: 'json_schema', json_schema: { name: 'answer', schema: { type: 'object' }, strict: true } },
    });
    assert.deepEqual(convert({ input: 'x', text: { format: { type: 'json_object' } } })['response_format'], { type: 'json_object' });
    assert.equal(convert({ input: 'x', text: { format: { type: 'text' } } })['response_format'], undefined);
  });

  it('converts function tools (dropping strict) and the tool_choice shape', () => {
    const tools = [{ type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true }];
    const chat = convert({ input: 'x', tools, tool_choice: { type: 'function', name: 'get_weather' }, parallel_tool_calls: false });
    assert.deepEqual(chat['tools'], [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]);
    assert.deepEqual(chat['tool_choice'], { type: 'function', function: { name: 'get_weather' } });
    assert.equal(chat['parallel_tool_calls'], false);
    assert.equal(convert({ input: 'x', tools, tool_choice: 'required' })['tool_choice'], 'required');
  });

  it('drops tool_choice and parallel_tool_calls without tools, and rejects required without tools', () => {
    const chat = convert({ input: 'x', tools: [], tool_choice: 'auto', parallel_tool_calls: true });
    assert.equal('tool_choice' in chat || 'parallel_tool_calls' in chat || 'tools' in chat, false);
    assert.throws(() => convert({ input: 'x', tool_choice: 'required' }), { statusCode: 400, message: /requires at least one tool/ });
  });

  it('rejects non-function tools, previous_response_id and stored prompts', () => {
    assert.throws(() => convert({ input: 'x', tools: [{ type: 'web_search' }] }), { message: /tools\[0\]: tool type 'web_search'/ });
    assert.throws(() => convert({ input: 'x', previous_response_id: 'resp_1' }), { message: /previous_response_id/ });
    assert.throws(() => convert({ input: 'x', prompt: { id: 'p' } }), { message: /prompt/ });
  });
});

import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type OpenAI from 'openai';
import * as fx from './fixtures.js';
import { startVllmUnderTest } from './support.js';
import type { FakeVllm } from './fake-vllm.js';
import type { RunningModelServer } from './support.js';

type Json = Record<string, unknown>;
const KEY = 'vllm-secret-key-123';

describe('vllm_model over HTTP with the openai client', () => {
  let vllm: FakeVllm;
  let server: RunningModelServer;
  let client: OpenAI;
  let close: () => Promise<void>;
  before(async () => {
    ({ vllm, server, client, close } = await startVllmUnderTest('Qwen/Qwen3-8B', {
      api_key: KEY,
      return_token_id_information: false,
      uses_reasoning_parser: 'true',
      chat_template_kwargs: { enable_thinking: true },
      extra_body: { top_k: 20, seed: 1 },
      sampling_overrides: { temperature: 1.0 },
      default_headers: { 'X-Team': 'rl' },
    }));
  });
  after(() => close());
  beforeEach(() => vllm.requests.splice(0));
  const lastChatBody = () => vllm.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!;

  it('answers responses.create by converting to vLLM chat and back', async () => {
    const response = await client.responses.create({
      model: 'policy',
      input: 'Hi',
      instructions: 'Be brief.',
      temperature: 0.3,
      max_output_tokens: 50,
      metadata: { chat_template_kwargs: '{"enable_thinking": false}' },
    });
    assert.equal(response.output_text, 'Hello from replica.');
    assert.equal(response.status, 'completed');
    assert.equal(response.model, 'Qwen/Qwen3-8B');
    assert.equal(response.usage?.total_tokens, 16);
    const sent = lastChatBody();
    assert.equal(sent.headers['authorization'], `Bearer ${KEY}`);
    assert.equal(sent.headers['x-team'], 'rl');
    assert.deepEqual(sent.body, {
      top_k: 20,
      seed: 1,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      ],
      model: 'Qwen/Qwen3-8B',
      temperature: 1.0,
      metadata: { chat_template_kwargs: '{"enable_thinking": false}' },
      max_tokens: 50,
      chat_template_kwargs: { enable_thinking: false },
    });
  });

  it('runs a tool-call turn and sends the tool output back as a tool message', async () => {
    vllm.reply('/v1/chat/completions', fx.reasoningContent());
    const tools = [{ type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true }];
    const first = await client.responses.create({ model: 'p', input: 'Weather in Oslo?', tools });
    assert.deepEqual(
      first.output.map((i) => i.type),
      ['reasoning', 'message', 'function_call'],
    );
    const call = first.output[2] as OpenAI.Responses.ResponseFunctionToolCall;
    assert.deepEqual([call.call_id, call.name, call.arguments], ['chatcmpl-tool-a1', 'get_weather', '{"city":"Oslo"}']);
    const input = [
      { role: 'user' as const, content: 'Weather in Oslo?' },
      ...(first.output as OpenAI.Responses.ResponseInputItem[]),
      { type: 'function_call_output' as const, call_id: call.call_id, output: 'cold' },
    ];
    const second = await client.responses.create({ model: 'p', input, tools });
    assert.equal(second.output_text, 'Hello from replica.');
    const messages = lastChatBody().body!['messages'] as Json[];
    assert.deepEqual(messages.slice(1), [
      {
        role: 'assistant',
        content: 'Let me check.',
        reasoning_content: 'The user wants the weather; call the tool.',
        reasoning: 'The user wants the weather; call the tool.',
        tool_calls: [{ id: 'chatcmpl-tool-a1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
      },
      { role: 'tool', tool_call_id: 'chatcmpl-tool-a1', content: 'cold' },
    ]);
    assert.deepEqual(lastChatBody().body!['tools'], [{ type: 'function', function: { name: 'get_weather', parameters: tools[0]!.parameters } }]);
  });

  it('answers chat.completions.create with the same parameter handling and reasoning folded into <think>', async () => {
    vllm.reply('/v1/chat/completions', fx.reasoningField());
    const completion = await client.chat.completions.create({ model: 'p', messages: [{ role: 'user', content: '2+2?' }], temperature: 0 });
    assert.equal(completion.choices[0]!.message.content, '<think>2 + 2 = 4</think>It is 4.');
    const sent = lastChatBody().body!;
    assert.deepEqual([sent['model'], sent['temperature'], sent['top_k'], sent['chat_template_kwargs']], ['Qwen/Qwen3-8B', 1.0, 20, { enable_thinking: true }]);
  });

  it('softens a context overflow into an incomplete response and a length finish', async () => {
    vllm.fail('/v1/chat/completions', { status: 400, body: fx.CONTEXT_OVERFLOW_BODY }, { status: 400, body: fx.CONTEXT_OVERFLOW_BODY });
    const response = await client.responses.create({ model: 'p', input: 'very long' });
    assert.equal(response.status, 'incomplete');
    assert.deepEqual(response.incomplete_details, { reason: 'max_output_tokens' });
    assert.equal(response.output_text, '');
    const completion = await client.chat.completions.create({ model: 'p', messages: [{ role: 'user', content: 'long' }] });
    assert.equal(completion.choices[0]!.finish_reason, 'length');
  });

  it('answers 422 for unknown top-level fields and 400 for inputs vLLM cannot take', async () => {
    const unknown = await server.http.post(`${server.url}/v1/responses`, { input: 'x', bogus: 1 }, { raw: true });
    assert.equal(unknown.status, 422);
    const bad = await server.http.post(`${server.url}/v1/responses`, { input: [{ type: 'web_search_call', id: 'w' }] }, { raw: true });
    assert.equal(bad.status, 400);
    assert.match(String((bad.body as Json)['detail']), /input\[0\]: item type 'web_search_call'/);
    assert.equal(vllm.requests.length, 0);
  });
});

// `stream: true` through vllm_model: the request is converted to one vLLM chat completion (as the
// original does), and its conversion back to a Response goes out as Responses streaming events.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startVllmUnderTest } from './support.js';
import type { FakeVllm } from './fake-vllm.js';

describe('vllm_model streaming /v1/responses', () => {
  let vllm: FakeVllm;
  let client: OpenAI;
  let close: () => Promise<void>;
  before(async () => {
    ({ vllm, client, close } = await startVllmUnderTest('Qwen/Qwen3-8B', { api_key: 'k', return_token_id_information: false, uses_reasoning_parser: true }));
  });
  after(() => close());
  beforeEach(() => vllm.requests.splice(0));

  it('streams a tool call and then text, in order, from vLLM chat completions', async () => {
    vllm.reply('/v1/chat/completions', {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'Qwen/Qwen3-8B',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Checking.',
            reasoning_content: 'Need the weather.',
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 6, total_tokens: 16 },
    });
    const stream = await client.responses.create({
      model: 'x',
      input: 'Weather in Oslo?',
      stream: true,
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' }, strict: false }],
    });
    const types: string[] = [];
    let text = '';
    let args = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.function_call_arguments.delta') args += event.delta;
    }
    assert.equal(types[0], 'response.created');
    assert.equal(types.at(-1), 'response.completed');
    // reasoning, then the message, then the call: each opened before it is filled and closed after
    const items = types.filter((t) => t === 'response.output_item.added' || t === 'response.output_item.done');
    assert.deepEqual(items, [
      'response.output_item.added',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_item.done',
      'response.output_item.added',
      'response.output_item.done',
    ]);
    assert.ok(types.indexOf('response.reasoning_summary_text.delta') < types.indexOf('response.output_text.delta'));
    assert.ok(types.indexOf('response.output_text.delta') < types.indexOf('response.function_call_arguments.delta'));
    assert.equal(text, 'Checking.');
    assert.equal(args, '{"city":"Oslo"}');
    const chat = vllm.requests.filter((r) => r.path === '/v1/chat/completions');
    assert.equal(chat.length, 1);
    assert.equal(chat[0]!.body?.['stream'], undefined);
  });

  it('gives responses.stream() the same response as a JSON call', async () => {
    const streamed = await client.responses.stream({ model: 'x', input: 'Hi' }).finalResponse();
    const plain = await client.responses.create({ model: 'x', input: 'Hi' });
    assert.equal(streamed.output_text, 'Hello from replica.');
    assert.equal(streamed.output_text, plain.output_text);
    assert.deepEqual(streamed.usage, plain.usage);
  });

  it('aborts the vLLM request when its caller goes away, and keeps serving', async () => {
    vllm.fail('/v1/chat/completions', 'hang');
    const controller = new AbortController();
    const pending = client.responses.create({ model: 'x', input: 'Hi', stream: true }, { signal: controller.signal });
    while (vllm.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await assert.rejects(pending, OpenAI.APIUserAbortError);
    await vllm.abandoned(1);
    assert.equal((await client.responses.stream({ model: 'x', input: 'Hi' }).finalResponse()).output_text, 'Hello from replica.');
  });

  it('streams /v1/chat/completions as chunks from one non-streamed vLLM call', async () => {
    const final = await client.chat.completions.stream({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] }).finalChatCompletion();
    assert.equal(final.choices[0]?.message.content, 'Hello from replica.');
    const chat = vllm.requests.filter((r) => r.path === '/v1/chat/completions');
    assert.equal(chat.length, 1);
    assert.equal(chat[0]!.body?.['stream'], undefined);
    assert.equal(chat[0]!.body?.['stream_options'], undefined);
  });
});

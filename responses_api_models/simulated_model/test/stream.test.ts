// `stream: true` on the simulated model: the `openai` client streams its canned tool call and,
// once a tool output is present, its text answer; an Anthropic client gets the same over /v1/messages.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import createSimulatedModel from '../app.js';
import { startModelServer } from '../../vllm_model/test/support.js';
import type { RunningModelServer } from '../../vllm_model/test/support.js';

const WEATHER = { type: 'function' as const, name: 'get_weather', strict: false, parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('simulated_model streaming /v1/responses', () => {
  let server: RunningModelServer;
  let client: OpenAI;
  before(async () => {
    server = await startModelServer(createSimulatedModel, 'simulated_model', { model_name: 'sim' });
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  });
  after(() => server.close());

  it('streams the tool call it makes', async () => {
    const stream = await client.responses.create({ model: 'sim', input: 'weather in oslo?', tools: [WEATHER], stream: true });
    const types: string[] = [];
    let args = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.function_call_arguments.done') args = event.arguments;
    }
    assert.deepEqual(types, [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    assert.deepEqual(JSON.parse(args), { city: 'oslo' });
  });

  it('streams its text answer once the tool output is there', async () => {
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'weather in oslo?' },
      { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{"city":"oslo"}' },
      { type: 'function_call_output', call_id: 'c1', output: 'cold' },
    ];
    const stream = client.responses.stream({ model: 'sim', input, tools: [WEATHER] });
    const deltas: string[] = [];
    stream.on('response.output_text.delta', (event) => deltas.push(event.delta));
    const final = await stream.finalResponse();
    assert.equal(final.output_text, 'Based on the tool result: cold');
    assert.equal(deltas.join(''), final.output_text);
    assert.ok((final.usage?.output_tokens ?? 0) > 0);
  });

  it('answers the Anthropic dialect on /v1/messages with its tool call', async () => {
    const res = await fetch(`${server.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim', max_tokens: 100, messages: [{ role: 'user', content: 'weather in oslo?' }], tools: [{ name: 'get_weather', input_schema: WEATHER.parameters }] }),
    });
    const message = (await res.json()) as { content: Array<Record<string, unknown>>; stop_reason: string };
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.content[0]?.['type'], 'tool_use');
    assert.deepEqual(message.content[0]?.['input'], { city: 'oslo' });
  });
});

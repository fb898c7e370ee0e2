// `stream: true` through openai_model: the upstream is asked for the whole response (as the
// original does), and the `openai` client reads it back as Responses streaming events.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import createOpenAIModel from '../app.js';
import { startFakeVllm } from '../../vllm_model/test/fake-vllm.js';
import { startModelServer } from '../../vllm_model/test/support.js';
import type { FakeVllm } from '../../vllm_model/test/fake-vllm.js';
import type { RunningModelServer } from '../../vllm_model/test/support.js';

describe('openai_model streaming /v1/responses', () => {
  let upstream: FakeVllm;
  let server: RunningModelServer;
  let client: OpenAI;
  before(async () => {
    upstream = await startFakeVllm({ model: 'gpt-4.1' });
    server = await startModelServer(createOpenAIModel, 'openai_model', { openai_base_url: upstream.baseUrl, openai_api_key: 'sk-test-key-1234', openai_model: 'gpt-4.1' });
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'caller', maxRetries: 0 });
  });
  after(async () => {
    await server.close();
    await upstream.close();
  });
  beforeEach(() => upstream.requests.splice(0));

  it('streams the upstream answer as events in order, ending with the final text', async () => {
    const stream = await client.responses.create({ model: 'x', input: 'Hi', stream: true });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    assert.deepEqual(types, [
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    assert.equal(text, 'Hello from replica.');
    // the upstream was asked for the whole response, without the stream flag
    assert.equal(upstream.requests.length, 1);
    assert.deepEqual(upstream.requests[0]!.body, { model: 'gpt-4.1', input: 'Hi' });
  });

  it('gives responses.stream() the final response with usage', async () => {
    const final = await client.responses.stream({ model: 'x', input: 'Hi' }).finalResponse();
    assert.equal(final.output_text, 'Hello from replica.');
    assert.equal(final.usage?.total_tokens, 16);
  });

  it('ends the stream with response.failed when the upstream fails', async () => {
    upstream.fail('/v1/responses', { status: 400, body: { error: { message: 'bad model sk-test-key-1234' } } });
    const stream = await client.responses.create({ model: 'x', input: 'Hi', stream: true });
    const events = [];
    for await (const event of stream) events.push(event);
    const last = events.at(-1);
    assert.equal(last?.type, 'response.failed');
    const message = last?.type === 'response.failed' ? (last.response.error?.message ?? '') : '';
    assert.match(message, /answered 400/);
    assert.doesNotMatch(message, /sk-test-key-1234/);
  });

  it('aborts the upstream request when its caller goes away mid-request, and keeps serving', async () => {
    upstream.fail('/v1/responses', 'hang');
    const controller = new AbortController();
    const pending = client.responses.create({ model: 'x', input: 'Hi', stream: true }, { signal: controller.signal });
    while (upstream.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await assert.rejects(pending, OpenAI.APIUserAbortError);
    await upstream.abandoned(1);
    const final = await client.responses.stream({ model: 'x', input: 'Hi' }).finalResponse();
    assert.equal(final.output_text, 'Hello from replica.');
  });
});

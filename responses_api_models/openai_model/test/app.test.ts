import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import createOpenAIModel from '../app.js';
import { startFakeVllm } from '../../vllm_model/test/fake-vllm.js';
import { startModelServer } from '../../vllm_model/test/support.js';
import type { FakeVllm } from '../../vllm_model/test/fake-vllm.js';
import type { RunningModelServer } from '../../vllm_model/test/support.js';

const KEY = 'sk-openai-secret-9876';

describe('openai_model over HTTP with the openai client', () => {
  let upstream: FakeVllm;
  let server: RunningModelServer;
  let client: OpenAI;
  before(async () => {
    upstream = await startFakeVllm({ model: 'gpt-4.1', latencyMs: 20 });
    server = await startModelServer(createOpenAIModel, 'openai_model', {
      openai_base_url: upstream.baseUrl,
      openai_api_key: KEY,
      openai_model: 'gpt-4.1',
      openai_organization: 'org-1',
      openai_default_headers: { 'X-Title': 'gym' },
      extra_body: { service_tier: 'flex', temperature: 0.7 },
      max_concurrent_requests: '2',
      drop_input_reasoning_items: 'true',
    });
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'caller', maxRetries: 0 });
  });
  after(async () => {
    await server.close();
    await upstream.close();
  });
  beforeEach(() => upstream.requests.splice(0));

  it('passes responses.create through with extra_body underneath, the model, auth and headers', async () => {
    const input: OpenAI.Responses.ResponseInputItem[] = [
      { role: 'user', content: 'q' },
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'ok' },
    ];
    const response = await client.responses.create({ model: 'anything', input, temperature: 0.1 });
    assert.equal(response.output_text, 'Hello from replica.');
    const sent = upstream.requests[0]!;
    assert.equal(sent.path, '/v1/responses');
    assert.equal(sent.headers['authorization'], `Bearer ${KEY}`);
    assert.equal(sent.headers['openai-organization'], 'org-1');
    assert.equal(sent.headers['x-title'], 'gym');
    assert.deepEqual(sent.body, { service_tier: 'flex', temperature: 0.1, model: 'gpt-4.1', input: [input[0], input[2], input[3]] });
  });

  it('passes chat.completions.create through to /chat/completions', async () => {
    const completion = await client.chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(completion.choices[0]!.message.content, 'Hello from replica.');
    assert.equal(upstream.requests[0]!.path, '/v1/chat/completions');
    assert.deepEqual(upstream.requests[0]!.body, { service_tier: 'flex', temperature: 0.7, model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('keeps at most max_concurrent_requests calls in flight', async () => {
    const calls = Array.from({ length: 6 }, () => client.responses.create({ model: 'm', input: 'x' }));
    await Promise.all(calls);
    assert.equal(upstream.requests.length, 6);
    assert.ok(upstream.peakInFlight <= 2, `peak ${upstream.peakInFlight}`);
  });

  it('retries a 429 and surfaces a 500 without retrying, never showing the key', async () => {
    upstream.fail('/v1/responses', { status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '0' } });
    assert.equal((await client.responses.create({ model: 'm', input: 'x' })).output_text, 'Hello from replica.');
    assert.equal(upstream.requests.length, 2);
    upstream.requests.splice(0);
    upstream.fail('/v1/responses', { status: 500, body: { error: { message: `server error for key ${KEY}`, type: 'server_error' } } });
    const res = await server.http.post(`${server.url}/v1/responses`, { input: 'x' }, { raw: true, retry: false });
    assert.equal(upstream.requests.length, 1);
    assert.equal(res.status, 500);
    assert.match(res.text, /Hit an exception in SimpleResponsesAPIModel___policy_model calling an inner server: .*server error for key \[REDACTED\]/);
    assert.equal(res.text.includes(KEY), false);
  });

  it('rejects an upstream answer that is not a Response', async () => {
    upstream.reply('/v1/responses', { object: 'list', data: [] });
    const res = await server.http.post(`${server.url}/v1/responses`, { input: 'x' }, { raw: true });
    assert.equal(res.status, 500);
    assert.match(String(res.body), /GYM|not a response object/);
  });
});

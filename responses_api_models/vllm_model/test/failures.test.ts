import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import createVllmModel from '../app.js';
import { startFakeVllm } from './fake-vllm.js';
import { startModelServer, startVllmUnderTest } from './support.js';
import type { FakeVllm } from './fake-vllm.js';
import type { RunningModelServer } from './support.js';

const KEY = 'sk-vllm-very-secret-4242';

describe('vllm_model upstream failures', () => {
  let vllm: FakeVllm;
  let server: RunningModelServer;
  let client: OpenAI;
  let close: () => Promise<void>;
  before(async () => {
    ({ vllm, server, client, close } = await startVllmUnderTest('fake-model', { api_key: KEY, return_token_id_information: false, uses_reasoning_parser: true }));
  });
  after(() => close());
  beforeEach(() => vllm.requests.splice(0));
  const post = (body: unknown) => server.http.post(`${server.url}/v1/responses`, body, { raw: true, retry: false });

  it('retries a 429 and then answers', async () => {
    vllm.fail('/v1/chat/completions', { status: 429, body: { error: { message: 'rate limited' } } });
    const response = await client.responses.create({ model: 'p', input: 'hi' });
    assert.equal(response.output_text, 'Hello from replica.');
    assert.equal(vllm.requests.length, 2);
  });

  it('retries a dropped connection and then answers', async () => {
    vllm.fail('/v1/chat/completions', 'disconnect');
    const completion = await client.chat.completions.create({ model: 'p', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(completion.choices[0]!.message.content, 'Hello from replica.');
    assert.equal(vllm.requests.length, 2);
  });

  it('does not retry a 500 and surfaces it as a 500 naming the server and the upstream body', async () => {
    vllm.fail('/v1/chat/completions', { status: 500, body: { object: 'error', message: 'CUDA out of memory', type: 'InternalServerError', code: 500 } });
    const res = await post({ input: 'hi' });
    assert.equal(vllm.requests.length, 1);
    assert.equal(res.status, 500);
    assert.match(String(res.body), /^Hit an exception in SimpleResponsesAPIModel___policy_model calling an inner server: .*CUDA out of memory/);
  });

  it('fails the openai client with status 500 when vLLM is down', async () => {
    vllm.fail('/v1/chat/completions', { status: 500, body: { message: 'boom' } });
    await assert.rejects(client.responses.create({ model: 'p', input: 'hi' }), (error: unknown) => error instanceof OpenAI.APIError && error.status === 500);
  });

  it('gives up after the bounded retries of a persistent 503', async () => {
    vllm.fail('/v1/chat/completions', ...Array.from({ length: 5 }, () => ({ status: 503, body: { message: 'loading' } })));
    const res = await post({ input: 'hi' });
    assert.equal(res.status, 500);
    assert.equal(vllm.requests.length, 5);
    assert.match(String(res.body), /loading/);
  });

  it('never shows the API key, even when vLLM echoes it', async () => {
    vllm.fail('/v1/chat/completions', { status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}`, code: 'invalid_api_key' } } });
    const res = await post({ input: 'hi' });
    assert.equal(res.status, 500);
    assert.equal(res.text.includes(KEY), false);
    assert.match(res.text, /Incorrect API key provided: \[REDACTED\]/);
  });

  it('reports an unreachable vLLM as a connection error', async () => {
    const dead = await startFakeVllm();
    await dead.close();
    const lonely = await startModelServer(createVllmModel, 'vllm_model', { base_url: dead.baseUrl, api_key: KEY, model: 'm', return_token_id_information: false, uses_reasoning_parser: true });
    try {
      const res = await lonely.http.post(`${lonely.url}/v1/responses`, { input: 'hi' }, { raw: true, retry: false });
      assert.equal(res.status, 500);
      assert.match(String(res.body), /GymHttpConnectionError\('POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions failed after 5 attempt/);
      assert.equal(res.text.includes(KEY), false);
    } finally {
      await lonely.close();
    }
  });
});

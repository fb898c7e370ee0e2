import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { startVllmUnderTest } from './support.js';
import type { FakeVllm } from './fake-vllm.js';
import type { RunningModelServer } from './support.js';

describe('vllm_model with is_responses_native', () => {
  let vllm: FakeVllm;
  let server: RunningModelServer;
  let close: () => Promise<void>;
  before(async () => {
    ({ vllm, server, close } = await startVllmUnderTest('openai/gpt-oss-20b', {
      api_key: 'EMPTY',
      return_token_id_information: false,
      uses_reasoning_parser: true,
      is_responses_native: true,
      sampling_overrides: { temperature: 1 },
    }));
  });
  after(() => close());

  it('sends the Responses request to vLLM /responses without conversion', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const response = await client.responses.create({
      model: 'p',
      input: [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { role: 'user', content: 'hi' },
      ],
      temperature: 0,
    });
    assert.equal(response.output_text, 'Hello from replica.');
    assert.deepEqual(
      vllm.requests.map((r) => r.path),
      ['/v1/responses'],
    );
    assert.deepEqual(vllm.requests[0]!.body, {
      model: 'openai/gpt-oss-20b',
      input: [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { role: 'user', content: 'hi' },
      ],
      temperature: 1,
    });
  });
});

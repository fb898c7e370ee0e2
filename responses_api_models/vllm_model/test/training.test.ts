import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import createVllmModel from '../app.js';
import * as fx from './fixtures.js';
import { FAKE_PROMPT_IDS, startFakeVllm } from './fake-vllm.js';
import { startModelServer } from './support.js';
import type { FakeVllm } from './fake-vllm.js';
import type { RunningModelServer } from './support.js';

type Json = Record<string, unknown>;
const FIELDS = { base_url: '', api_key: 'k-training-0001', model: 'policy', return_token_id_information: true, uses_reasoning_parser: true };

describe('vllm_model training mode over HTTP', () => {
  let vllm: FakeVllm;
  let plain: RunningModelServer;
  let inline: RunningModelServer;
  before(async () => {
    vllm = await startFakeVllm({ model: 'policy' });
    plain = await startModelServer(createVllmModel, 'vllm_model', { ...FIELDS, base_url: vllm.baseUrl });
    inline = await startModelServer(createVllmModel, 'vllm_model', { ...FIELDS, base_url: vllm.baseUrl, request_prompt_and_generation_token_ids: true });
  });
  after(async () => {
    await plain.close();
    await inline.close();
    await vllm.close();
  });
  beforeEach(() => vllm.requests.splice(0));
  const respond = async (server: RunningModelServer, body: Json) => (await server.http.post<Json>(`${server.url}/v1/responses`, body)).body;
  const paths = () => vllm.requests.map((r) => r.path);

  it('reads logprob tokens and tokenizes the prompt (source c), putting ids on the last item', async () => {
    const response = await respond(plain, { input: 'q', tools: [{ type: 'function', name: 'f', parameters: {} }] });
    assert.deepEqual(paths(), ['/v1/chat/completions', '/tokenize']);
    const sent = vllm.requests[0]!.body!;
    assert.deepEqual([sent['logprobs'], sent['top_logprobs'], sent['return_tokens_as_token_ids']], [true, 0, true]);
    const tokenize = vllm.requests[1]!.body!;
    assert.deepEqual(Object.keys(tokenize).sort(), ['messages', 'model', 'tools']);
    assert.equal(vllm.requests[1]!.headers['authorization'], 'Bearer k-training-0001');
    const last = (response['output'] as Json[]).at(-1)!;
    assert.deepEqual([last['prompt_token_ids'], last['generation_token_ids'], last['generation_log_probs']], [FAKE_PROMPT_IDS, [9906, 505, 2311, 13], [-0.25, -0.5, -0.75, -1]]);
  });

  it('uses prompt_token_ids and token_ids when vLLM returns them (source b), without tokenizing', async () => {
    await respond(inline, { input: 'q' });
    assert.deepEqual(paths(), ['/v1/chat/completions']);
    assert.equal(vllm.requests[0]!.body!['return_token_ids'], true);
  });

  it('takes a message bundle (source a) and fails on disagreeing sources', async () => {
    vllm.reply('/v1/chat/completions', fx.messageBundle());
    const response = await respond(plain, { input: 'q' });
    assert.deepEqual((response['output'] as Json[]).at(-1)!['prompt_token_ids'], fx.TOKENS.PROMPT);
    const disagreeing = fx.responseTokenIds([1, 2, 3, 4, 5]);
    vllm.reply('/v1/chat/completions', disagreeing);
    const failed = await plain.http.post(`${plain.url}/v1/responses`, { input: 'q' }, { raw: true });
    assert.equal(failed.status, 500);
    assert.match(String(failed.body), /GymModelReplyError\('choice\.token_ids disagree/);
  });

  it('sends the ids of the previous turn back on the assistant message', async () => {
    const first = await respond(plain, { input: 'q' });
    const input = [{ role: 'user', content: 'q' }, ...(first['output'] as Json[]), { role: 'user', content: 'again' }];
    vllm.requests.splice(0);
    await respond(plain, { input });
    const assistant = (vllm.requests[0]!.body!['messages'] as Json[])[1]!;
    assert.deepEqual([assistant['role'], assistant['prompt_token_ids'], assistant['generation_token_ids']], ['assistant', FAKE_PROMPT_IDS, [9906, 505, 2311, 13]]);
  });

  it('answers chat.completions with the ids on the message', async () => {
    const client = new OpenAI({ baseURL: `${inline.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: 'p', messages: [{ role: 'user', content: 'q' }] });
    const message = completion.choices[0]!.message as unknown as Json;
    assert.deepEqual(message['generation_token_ids'], [9906, 505, 2311, 13]);
    assert.equal((completion as unknown as Json)['prompt_token_ids'], undefined);
    assert.equal(completion.choices[0]!.logprobs, undefined);
  });
});

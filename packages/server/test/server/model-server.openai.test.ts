import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { defineModelServer, listen } from '../../src/server/index.js';
import { openAIResponse } from './openai-response.js';
import type { FastifyInstance } from 'fastify';

const RESPONSE = openAIResponse([
  {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'It is sunny.', annotations: [] }],
  },
]);

const CHAT = {
  id: 'chatcmpl_1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'policy',
  choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: 'Hello.', refusal: null } }],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};

describe('model server with the openai client', () => {
  const seen: unknown[] = [];
  let app: FastifyInstance;
  let client: OpenAI;
  before(async () => {
    app = defineModelServer({
      name: 'policy_model',
      responses: { handler: (body) => (seen.push(body), RESPONSE) },
      chatCompletions: { handler: (body) => (seen.push(body), CHAT) },
    }).build();
    const { url } = await listen(app);
    client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });
  });
  after(() => app.close());

  it('answers client.responses.create', async () => {
    const response = await client.responses.create({ model: 'policy', input: 'Weather in Paris?' });
    assert.equal(response.id, 'resp_1');
    assert.equal(response.output_text, 'It is sunny.');
    assert.equal(response.usage?.total_tokens, 9);
    assert.deepEqual(seen.at(-1), { model: 'policy', input: 'Weather in Paris?' });
  });

  it('answers client.chat.completions.create', async () => {
    const completion = await client.chat.completions.create({ model: 'policy', messages: [{ role: 'user', content: 'Hi' }] });
    assert.equal(completion.choices[0]?.message.content, 'Hello.');
    assert.deepEqual(seen.at(-1), { model: 'policy', messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('answers a non-object body with a 422 dict_type detail', async () => {
    const strict = defineModelServer({
      name: 'strict',
      responses: { handler: () => RESPONSE },
      chatCompletions: { handler: () => CHAT },
    }).build();
    const res = await strict.inject({ method: 'POST', url: '/v1/responses', payload: [] });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().detail[0], { loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' });
    await strict.close();
  });
});

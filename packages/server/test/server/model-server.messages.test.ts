// `POST /v1/messages` on every model server: the Anthropic Messages dialect mapped onto the
// server's own `responses` handler, as JSON and as Anthropic SSE, over real HTTP.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defineModelServer, listen } from '../../src/server/index.js';
import type { FastifyInstance } from 'fastify';

type Json = Record<string, unknown>;

const RESPONSE = {
  id: 'resp_1',
  object: 'response',
  created_at: 1,
  model: 'policy',
  status: 'completed',
  error: null,
  incomplete_details: null,
  output: [
    { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Need the weather.' }] },
    { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
    { id: 'fc_1', type: 'function_call', call_id: 'toolu_2', name: 'get_weather', arguments: '{"city":"Oslo"}', status: 'completed' },
  ],
  usage: { input_tokens: 21, output_tokens: 9, total_tokens: 30 },
};

/** The `event:` names and parsed `data:` of an SSE body. */
function sseEvents(body: string): Array<{ event: string; data: Json }> {
  return body
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(chunk)?.[1] ?? 'null') as Json;
      return { event, data };
    });
}

describe('model server /v1/messages', () => {
  const seen: Json[] = [];
  let failNext = false;
  let app: FastifyInstance;
  let url: string;
  const post = (body: unknown) => fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }, body: JSON.stringify(body) });

  before(async () => {
    app = defineModelServer({
      name: 'policy_model',
      responses: {
        handler: (body) => {
          seen.push(body);
          if (failNext) {
            failNext = false;
            throw new Error('backend down');
          }
          return RESPONSE;
        },
      },
      chatCompletions: { handler: () => ({}) },
    }).build();
    ({ url } = await listen(app));
  });
  after(() => app.close());

  const REQUEST = {
    model: 'claude-like',
    max_tokens: 256,
    system: [{ type: 'text', text: 'You are terse.' }],
    tools: [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
    tool_choice: { type: 'any' },
    messages: [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Look it up.', signature: 'sig' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'sunny' }] },
          { type: 'text', text: 'And Oslo?' },
        ],
      },
    ],
  };

  it('maps the request onto the server’s Responses handler', async () => {
    const res = await post(REQUEST);
    assert.equal(res.status, 200);
    const sent = seen.at(-1)!;
    assert.equal(sent['instructions'], 'You are terse.');
    assert.equal(sent['max_output_tokens'], 256);
    assert.equal(sent['tool_choice'], 'required');
    assert.deepEqual(sent['tools'], [
      { type: 'function', name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false },
    ]);
    const input = sent['input'] as Json[];
    assert.deepEqual(
      input.map((item) => item['type']),
      ['message', 'reasoning', 'function_call', 'function_call_output', 'message'],
    );
    assert.deepEqual(input[2], { type: 'function_call', id: 'toolu_1', call_id: 'toolu_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' });
    assert.deepEqual(input[3], { type: 'function_call_output', call_id: 'toolu_1', output: 'sunny' });
    assert.deepEqual(input[4], { type: 'message', role: 'user', content: 'And Oslo?' });
  });

  it('answers with an Anthropic message: thinking, text and tool_use blocks, stop_reason and usage', async () => {
    const message = (await (await post(REQUEST)).json()) as Json;
    assert.equal(message['type'], 'message');
    assert.equal(message['role'], 'assistant');
    assert.equal(message['model'], 'claude-like');
    assert.deepEqual(message['content'], [
      { type: 'thinking', thinking: 'Need the weather.', signature: '' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    assert.equal(message['stop_reason'], 'tool_use');
    assert.deepEqual(message['usage'], { input_tokens: 21, output_tokens: 9 });
  });

  it('streams the Anthropic events in order for stream: true', async () => {
    const res = await post({ ...REQUEST, stream: true });
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = sseEvents(await res.text());
    assert.deepEqual(
      events.map((e) => e.event),
      [
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
        'message_stop',
      ],
    );
    for (const { event, data } of events) assert.equal(data['type'], event);
    const deltas = events.filter((e) => e.event === 'content_block_delta').map((e) => e.data['delta'] as Json);
    assert.deepEqual(deltas, [
      { type: 'thinking_delta', thinking: 'Need the weather.' },
      { type: 'text_delta', text: 'Checking.' },
      { type: 'input_json_delta', partial_json: '{"city":"Oslo"}' },
    ]);
    assert.deepEqual(events.at(-2)?.data, { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } });
  });

  it('ends the stream with an error event when the handler fails', async () => {
    failNext = true;
    const events = sseEvents(await (await post({ ...REQUEST, stream: true })).text());
    assert.deepEqual(events, [{ event: 'error', data: { type: 'error', error: { type: 'api_error', message: 'backend down' } } }]);
  });

  it("refuses blocks it cannot map with a 400 naming them, and a bad body with a 422, in Anthropic's error envelope", async () => {
    const res = await post({ messages: [{ role: 'user', content: [{ type: 'document', source: {} }] }] });
    assert.equal(res.status, 400);
    const refused = (await res.json()) as { type: string; error: { type: string; message: string } };
    assert.deepEqual([refused.type, refused.error.type], ['error', 'invalid_request_error']);
    assert.match(refused.error.message, /'document' are not supported/);
    const bad = await post({ messages: [{ role: 'system', content: 'x' }] });
    assert.equal(bad.status, 422);
    const invalid = (await bad.json()) as { type: string; error: { type: string; message: string } };
    assert.deepEqual([invalid.type, invalid.error.type], ['error', 'invalid_request_error']);
    assert.match(invalid.error.message, /^body\.messages\.0\.role: /);
    const unparsable = await fetch(`${url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    assert.deepEqual([unparsable.status, ((await unparsable.json()) as { error: { type: string } }).error.type], [400, 'invalid_request_error']);
  });

  it("answers a failing handler with a 500 in Anthropic's envelope (api_error); other routes keep their own error bodies", async () => {
    failNext = true;
    const res = await post(REQUEST);
    assert.equal(res.status, 500);
    assert.deepEqual(await res.json(), { type: 'error', error: { type: 'api_error', message: "Error('backend down')" } });
    const responses = await fetch(`${url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ input: 7 }) });
    assert.ok('detail' in ((await responses.json()) as object));
  });
});

// `stream: true` on a model server's /v1/responses: the `openai` client reads Responses streaming
// events over SSE and rebuilds the same response the JSON route answers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import OpenAI from 'openai';
import { defineModelServer, listen } from '../../src/server/index.js';
import { openAIResponse } from './openai-response.js';
import type { FastifyInstance } from 'fastify';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';

const RESPONSE = openAIResponse([
  { id: 'rs_1', type: 'reasoning', summary: [{ type: 'summary_text', text: 'The user asks about weather.' }] },
  { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Let me look.', annotations: [] }] },
  { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}', status: 'completed' },
]);

const CHAT = {
  id: 'chatcmpl_1',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'policy',
  choices: [
    {
      index: 0,
      finish_reason: 'tool_calls',
      logprobs: null,
      message: { role: 'assistant', content: 'Let me look.', refusal: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
    },
  ],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
};

const EXPECTED_ORDER = [
  'response.created',
  'response.in_progress',
  'response.output_item.added',
  'response.reasoning_summary_part.added',
  'response.reasoning_summary_text.delta',
  'response.reasoning_summary_text.done',
  'response.reasoning_summary_part.done',
  'response.output_item.done',
  'response.output_item.added',
  'response.content_part.added',
  'response.output_text.delta',
  'response.output_text.done',
  'response.content_part.done',
  'response.output_item.done',
  'response.output_item.added',
  'response.function_call_arguments.delta',
  'response.function_call_arguments.done',
  'response.output_item.done',
  'response.completed',
];

describe('model server /v1/responses with stream: true', () => {
  const seen: unknown[] = [];
  const signals: Array<AbortSignal | undefined> = [];
  let app: FastifyInstance;
  let url: string;
  let client: OpenAI;
  let failNext = false;
  let hangNext: (() => void) | undefined;
  before(async () => {
    app = defineModelServer({
      name: 'policy_model',
      responses: {
        handler: async (body, { signal }) => {
          seen.push(body);
          signals.push(signal);
          if (failNext) {
            failNext = false;
            throw new Error('upstream said no');
          }
          if (hangNext !== undefined) {
            const released = hangNext;
            hangNext = undefined;
            await new Promise((resolve) => signal?.addEventListener('abort', resolve, { once: true }));
            released();
            throw signal?.reason as Error;
          }
          return RESPONSE;
        },
      },
      chatCompletions: { handler: (body) => (seen.push(body), CHAT) },
    }).build();
    ({ url } = await listen(app));
    client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'unused', maxRetries: 0 });
  });
  after(() => app.close());

  it('sends every event in order, numbered, and ends with response.completed', async () => {
    const stream = await client.responses.create({ model: 'policy', input: 'Weather in Paris?', stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    assert.deepEqual(
      events.map((e) => e.type),
      EXPECTED_ORDER,
    );
    assert.deepEqual(
      events.map((e) => e.sequence_number),
      EXPECTED_ORDER.map((_, i) => i),
    );
    const deltas = events
      .filter((e) => e.type === 'response.output_text.delta')
      .map((e) => e.delta)
      .join('');
    assert.equal(deltas, 'Let me look.');
    const completed = events.at(-1);
    assert.equal(completed?.type === 'response.completed' && completed.response.usage?.total_tokens, 9);
    // the handler saw the request as a JSON call would: no stream flag
    assert.deepEqual(seen.at(-1), { model: 'policy', input: 'Weather in Paris?' });
  });

  it('lets responses.stream() rebuild the same response from the events', async () => {
    const final = await client.responses.stream({ model: 'policy', input: 'Weather in Paris?' }).finalResponse();
    assert.equal(final.output_text, 'Let me look.');
    // the SDK adds its `parsed` fields to what it rebuilt
    const unparsed = JSON.parse(JSON.stringify(final.output, (key, value: unknown) => (key === 'parsed' || key === 'parsed_arguments' ? undefined : value)));
    assert.deepEqual(unparsed, RESPONSE.output);
    const snapshots: string[] = [];
    const stream = client.responses.stream({ model: 'policy', input: 'Weather in Paris?' });
    stream.on('response.output_text.delta', (event) => snapshots.push(event.snapshot));
    stream.on('response.function_call_arguments.delta', (event) => snapshots.push(event.snapshot));
    await stream.done();
    assert.deepEqual(snapshots, ['Let me look.', '{"city":"Paris"}']);
  });

  it('hands the handler an abort signal only when streaming', async () => {
    await client.responses.create({ model: 'policy', input: 'Hi' });
    assert.equal(signals.at(-1), undefined);
    (await client.responses.create({ model: 'policy', input: 'Hi', stream: true })).controller.abort();
    assert.ok(signals.at(-1) instanceof AbortSignal);
  });

  it('answers with text/event-stream and keeps the session cookie', async () => {
    const res = await fetch(`${url}/v1/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'Hi', stream: true, stream_options: { include_obfuscation: false } }),
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.match(res.headers.get('set-cookie') ?? '', /SimpleResponsesAPIModel___policy_model=/);
    const text = await res.text();
    assert.match(text, /^event: response\.created\ndata: \{"type":"response\.created"/);
    assert.ok(text.endsWith('\n\n'));
  });

  it('refuses a stream flag that is not a boolean true with a 422, as a JSON request', async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/responses', payload: { input: 'Hi', stream: 'true' } });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(res.json().detail[0].loc, ['body', 'stream']);
    const bad = await app.inject({ method: 'POST', url: '/v1/responses', payload: { input: 42, stream: true } });
    assert.equal(bad.statusCode, 422);
    assert.deepEqual(bad.json().detail[0].loc.slice(0, 2), ['body', 'input']);
  });

  it('ends the stream with response.failed when the handler fails', async () => {
    failNext = true;
    const stream = await client.responses.create({ model: 'policy', input: 'Hi', stream: true });
    const events: ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    assert.deepEqual(
      events.map((e) => e.type),
      ['response.created', 'response.failed'],
    );
    const failed = events[1];
    assert.equal(failed?.type === 'response.failed' && failed.response.error?.message, 'upstream said no');
  });

  it('aborts the handler when the caller goes away, and keeps serving', async () => {
    const released = new Promise<void>((resolve) => (hangNext = resolve));
    const req = request(`${url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    req.on('error', () => undefined);
    req.end(JSON.stringify({ input: 'Hi', stream: true }));
    // the handler runs (and waits on its signal) once the request reached it
    while (hangNext !== undefined) await new Promise((resolve) => setImmediate(resolve));
    req.destroy();
    await released;
    assert.equal(signals.at(-1)?.aborted, true);
    const final = await client.responses.stream({ model: 'policy', input: 'Hi' }).finalResponse();
    assert.equal(final.output_text, 'Let me look.');
  });

  it('streams a chat completion as chat.completion.chunk events, with usage when asked for', async () => {
    const stream = await client.chat.completions.create({ model: 'policy', messages: [{ role: 'user', content: 'Hi' }], stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.deepEqual(
      chunks.map((c) => c.object),
      chunks.map(() => 'chat.completion.chunk'),
    );
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'Let me look.');
    assert.equal(chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])[0]?.function?.arguments, '{"city":"Paris"}');
    assert.equal(chunks.at(-2)?.choices[0]?.finish_reason, 'tool_calls');
    assert.deepEqual(chunks.at(-1)?.choices, []);
    assert.equal(chunks.at(-1)?.usage?.total_tokens, 5);
    assert.deepEqual(seen.at(-1), { model: 'policy', messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('lets chat.completions.stream() rebuild the completion, and ends the raw stream with [DONE]', async () => {
    const final = await client.chat.completions.stream({ model: 'policy', messages: [{ role: 'user', content: 'Hi' }] }).finalChatCompletion();
    assert.equal(final.choices[0]?.message.content, 'Let me look.');
    assert.equal(final.choices[0]?.message.tool_calls?.[0]?.type === 'function' && final.choices[0].message.tool_calls[0].function.name, 'get_weather');
    const raw = await (
      await fetch(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'Hi' }], stream: true }),
      })
    ).text();
    assert.ok(raw.startsWith('data: {"id":"chatcmpl_1","object":"chat.completion.chunk"'));
    assert.ok(raw.endsWith('data: [DONE]\n\n'));
    assert.doesNotMatch(raw, /"usage"/);
  });
});

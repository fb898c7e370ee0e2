import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../ids.js';
import { latencyMs, LATENCY_CONFIG } from '../latency.js';
import { simulateChatCompletion } from '../chat.js';
import { simulateResponse } from '../responses.js';
import { argumentsFor, salientWord } from '../schema-arguments.js';

const WEATHER = { type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };

describe('simulated_model', () => {
  it('gives every response, message and call an id of its own, across refills of the random pool', () => {
    const ids = Array.from({ length: 2000 }, () => newId('resp_'));
    for (const id of ids) assert.match(id, /^resp_[0-9a-f]{24}$/);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('calls the first offered tool with arguments valid for its schema', () => {
    const { response } = simulateResponse({ input: "what's it like in sf?", tools: [WEATHER] }, 'sim');
    const [call] = response['output'] as Array<Record<string, unknown>>;
    assert.equal(call?.['type'], 'function_call');
    assert.equal(call?.['name'], 'get_weather');
    assert.deepEqual(JSON.parse(String(call?.['arguments'])), { city: 'sf' });
  });

  it('answers in text once a tool output follows the last user message', () => {
    const input = [
      { role: 'user', content: 'weather in oslo?' },
      { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{"city":"oslo"}' },
      { type: 'function_call_output', call_id: 'c1', output: '{"weather_description":"cold"}' },
    ];
    const { response } = simulateResponse({ input, tools: [WEATHER] }, 'sim');
    const [message] = response['output'] as Array<Record<string, any>>;
    assert.equal(message?.['type'], 'message');
    assert.match(message?.['content'][0].text, /cold/);
  });

  it('honours tool_choice none and reports usage', () => {
    const { response } = simulateResponse({ input: 'hi', tools: [WEATHER], tool_choice: 'none' }, 'sim');
    assert.equal((response['output'] as Array<Record<string, unknown>>)[0]?.['type'], 'message');
    const usage = response['usage'] as Record<string, number>;
    assert.equal(usage['total_tokens'], usage['input_tokens']! + usage['output_tokens']!);
  });

  it('cuts a text answer at max_output_tokens and marks the response incomplete', () => {
    const { response } = simulateResponse({ input: 'tell me everything about the weather', max_output_tokens: 2 }, 'sim');
    assert.equal(response['status'], 'incomplete');
    assert.deepEqual(response['incomplete_details'], { reason: 'max_output_tokens' });
  });

  it('speaks chat completions with tool_calls and finish reasons', () => {
    const tools = [{ type: 'function', function: { name: 'get_weather', parameters: WEATHER.parameters } }];
    const first = simulateChatCompletion({ messages: [{ role: 'user', content: 'weather in rome?' }], tools }, 'sim').completion as any;
    assert.equal(first.choices[0].finish_reason, 'tool_calls');
    assert.deepEqual(JSON.parse(first.choices[0].message.tool_calls[0].function.arguments), { city: 'rome' });
    const second = simulateChatCompletion(
      {
        messages: [
          { role: 'user', content: 'weather in rome?' },
          { role: 'tool', content: 'sunny' },
        ],
        tools,
      },
      'sim',
    ).completion as any;
    assert.equal(second.choices[0].finish_reason, 'stop');
  });

  it('fills every required property with a value of its type', () => {
    const args = argumentsFor(
      {
        type: 'object',
        properties: { n: { type: 'integer' }, flag: { type: 'boolean' }, unit: { type: 'string', enum: ['c', 'f'] }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['n', 'flag', 'unit', 'tags'],
      },
      'x',
    );
    assert.deepEqual(args, { n: 1, flag: true, unit: 'c', tags: ['x'] });
    assert.equal(salientWord('Should I bring a jacket in Tokyo?'), 'tokyo');
  });

  it('models latency as fixed, or time to first token plus tokens per second, within its jitter', () => {
    assert.equal(latencyMs(LATENCY_CONFIG.parse({ mode: 'fixed', fixed_ms: 40 }), 100), 40);
    const vllmLike = LATENCY_CONFIG.parse({ mode: 'ttft_tps', ttft_ms: 200, tokens_per_second: 50, jitter: 0.1 });
    assert.equal(
      latencyMs(vllmLike, 50, () => 0.5),
      1200,
    );
    assert.ok(Math.abs(latencyMs(vllmLike, 50, () => 0) - 1080) < 1e-9);
    assert.throws(() => LATENCY_CONFIG.parse({ mode: 'warp' }));
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createHttpClient, createServerContext, loadConfig } from '@gym/server';
import createExampleSingleToolCall from '../app.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('example_single_tool_call', () => {
  let app: FastifyInstance;
  const http = createHttpClient();
  before(async () => {
    const config = await loadConfig({ rootDir: ROOT, selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] } });
    const definition = await createExampleSingleToolCall(createServerContext(config.raw, 'example_single_tool_call', http));
    app = definition.build();
  });
  after(async () => {
    await app.close();
    await http.close();
  });

  it('answers get_weather with the fixed sentence', async () => {
    const res = await app.inject({ method: 'POST', url: '/get_weather', payload: { city: 'oslo' } });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { city: 'oslo', weather_description: 'The weather in oslo is cold.' });
  });

  it('rejects a missing or mistyped city with a 422 naming the field', async () => {
    for (const payload of [{}, { city: 7 }]) {
      const res = await app.inject({ method: 'POST', url: '/get_weather', payload });
      assert.equal(res.statusCode, 422);
      assert.deepEqual(res.json().detail[0].loc, ['body', 'city']);
    }
  });

  it('rewards every verification with 1.0 and echoes the request fields', async () => {
    const body = { responses_create_params: { input: 'hi' }, response: { output: [{ type: 'function_call', name: 'get_weather', arguments: '{}' }] }, expected: 'x' };
    const res = await app.inject({ method: 'POST', url: '/verify', payload: body });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { ...body, reward: 1 });
  });

  it('seeds sessions with an empty answer, aggregates to empty metrics, and is stateless to reverify', async () => {
    assert.deepEqual((await app.inject({ method: 'POST', url: '/seed_session', payload: { anything: 1 } })).json(), {});
    const metrics = await app.inject({ method: 'POST', url: '/aggregate_metrics', payload: { verify_responses: [] } });
    assert.deepEqual(Object.keys(metrics.json()).sort(), ['agent_metrics', 'group_level_metrics', 'key_metrics']);
    assert.equal((await app.inject({ method: 'GET', url: '/reverify_mode' })).json(), 'stateless');
  });
});

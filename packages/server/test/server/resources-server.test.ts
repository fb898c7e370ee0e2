import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createHttpClient, GymHttpInvalidRouteError, GymHttpStatusError } from '../../src/http/index.js';
import { defineAgentServer, defineResourcesServer, listen } from '../../src/server/index.js';
import { weather } from './weather-server.js';
import type { FastifyInstance } from 'fastify';

describe('resources server over real HTTP', () => {
  const http = createHttpClient({ retry: { maxAttempts: 1 } });
  const apps: FastifyInstance[] = [];
  let url: string;
  before(async () => {
    const app = weather.build({ bodyLimitBytes: 4096 });
    apps.push(app);
    ({ url } = await listen(app));
  });
  after(async () => {
    await http.close();
    await Promise.all(apps.map((a) => a.close()));
  });

  it('lists its routes and tool names', () => {
    assert.deepEqual(weather.toolNames, ['get_weather', 'whoami', 'explode', 'throw_string', 'reject']);
    assert.ok(weather.routes.includes('/verify'));
  });

  it('keeps one session from seed_session through tool calls', async () => {
    const seeded = await http.post(`${url}/seed_session`, { responses_create_params: { input: 'hi' }, _ng_task_index: 0 });
    assert.deepEqual(seeded.body, {});
    assert.equal(Object.keys(seeded.cookies).length, 1);
    const tool = await http.post<{ session: string }>(`${url}/get_weather`, { city: 'Lima' }, { cookies: seeded.cookies });
    const again = await http.post<{ session: string }>(`${url}/whoami`, {}, { cookies: seeded.cookies });
    assert.equal(tool.body.session, again.body.session);
    assert.deepEqual(tool.cookies, {});
  });

  it('answers 422 for a wrong argument type and keeps serving', async () => {
    await assert.rejects(http.post(`${url}/get_weather`, { city: ['x'] }), (err: unknown) => {
      assert.ok(err instanceof GymHttpStatusError);
      assert.equal(err.status, 422);
      assert.deepEqual((err.body as { detail: { loc: unknown }[] }).detail[0]?.loc, ['body', 'city']);
      return true;
    });
    const ok = await http.get<{ status: string }>(`${url}/`);
    assert.deepEqual(ok.body, { status: 'ok' });
  });

  it('answers 413 for an oversized body over a socket', async () => {
    const res = await http.post(`${url}/get_weather`, { city: 'x'.repeat(10_000) }, { raw: true });
    assert.equal(res.status, 413);
    const ok = await http.get(`${url}/`);
    assert.equal(ok.status, 200);
  });

  it('answers aggregate_metrics and reverify_mode with defaults', async () => {
    const metrics = await http.post<{ key_metrics: unknown }>(`${url}/aggregate_metrics`, { verify_responses: [{ reward: 1 }] });
    assert.deepEqual(metrics.body.key_metrics, { 'mean/reward': 1 });
    const mode = await http.get(`${url}/reverify_mode`);
    assert.equal(mode.body, 'unknown');
  });

  it('nests an inner server failure into its own 500 body', async () => {
    const agent = defineAgentServer({
      name: 'simple_agent',
      run: { handler: async () => (await http.post(`${url}/explode`, {})).body },
      responses: { handler: () => ({}) },
    }).build();
    apps.push(agent);
    const res = await agent.inject({ method: 'POST', url: '/run', payload: { responses_create_params: { input: 'x' } } });
    assert.equal(res.statusCode, 500);
    assert.equal(res.json(), `Hit an exception in SimpleResponsesAPIAgent___simple_agent calling an inner server: "TypeError(\\"Cannot read properties of undefined (reading 'x')\\")"`);
  });

  it('refuses reserved or malformed tool names', () => {
    for (const name of ['verify', 'seed_session', 'bad/name', '']) {
      assert.throws(() => defineResourcesServer({ name: 'x', tools: { [name]: { input: z.object({}), handler: () => ({}) } }, verify: { handler: () => ({ reward: 0 }) } }), GymHttpInvalidRouteError);
    }
  });
});

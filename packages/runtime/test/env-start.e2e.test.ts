// The three-process flow, started by the real `gym env start`, driven over real HTTP.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import OpenAI from 'openai';
import { parse as parseYaml } from 'yaml';
import { isAlive, REPO_ROOT, runGym, startGymEnv } from './support/gym-process.js';
import type { GymEnv } from './support/gym-process.js';

const AGENT = 'example_single_tool_call_simple_agent';
const ROW = JSON.parse(readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!);
const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe('gym env start with example_single_tool_call and simulated_model', () => {
  let env: GymEnv;
  before(async () => {
    env = await startGymEnv(['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model', '++policy_api_key=sk-very-secret-123']);
  });
  after(async () => env?.dispose());

  it('starts one process per server instance and lists them on the head server', () => {
    assert.deepEqual(env.servers.map((s) => s.process_name).sort(), ['example_single_tool_call', AGENT, 'policy_model']);
    for (const s of env.servers) assert.ok(isAlive(s.pid), `${s.process_name} is running`);
  });

  it('runs a rollout through POST /run: seed, model, tool, model, verify — reward 1.0', async () => {
    const { status, body } = await post(`${env.url(AGENT)}/run`, ROW);
    assert.equal(status, 200);
    assert.equal(body.reward, 1);
    assert.deepEqual(
      body.response.output.map((item: { type: string }) => item.type),
      ['function_call', 'function_call_output', 'message'],
    );
    assert.equal(body.response.output[0].arguments, '{"city":"sf"}');
    assert.match(body.response.output[1].output, /The weather in sf is cold/);
    assert.ok(body.response.usage.total_tokens > 0);
    assert.deepEqual(body.responses_create_params, ROW.responses_create_params);
  });

  it('serves the OpenAI client on the model server and on the agent', async () => {
    const model = new OpenAI({ baseURL: `${env.url('policy_model')}/v1`, apiKey: 'unused', maxRetries: 0 });
    const response = await model.responses.create({ model: 'sim', input: 'weather in oslo?', tools: ROW.responses_create_params.tools });
    assert.equal(response.output[0]?.type, 'function_call');
    const chat = await model.chat.completions.create({ model: 'sim', messages: [{ role: 'user', content: 'hello there' }] });
    assert.equal(chat.choices[0]?.finish_reason, 'stop');
    assert.match(chat.choices[0]?.message.content ?? '', /simulated answer/);
    const agent = new OpenAI({ baseURL: `${env.url(AGENT)}/v1`, apiKey: 'unused', maxRetries: 0 });
    const trajectory = await agent.responses.create({ model: 'sim', input: ROW.responses_create_params.input, tools: ROW.responses_create_params.tools });
    assert.equal(trajectory.output.length, 3);
    assert.match(trajectory.output_text, /weather in sf is cold/);
  });

  it('answers a tool call with a wrong argument type with a 422 naming the field, and keeps serving', async () => {
    const resources = env.url('example_single_tool_call');
    const bad = await post(`${resources}/get_weather`, { city: 42 });
    assert.equal(bad.status, 422);
    assert.deepEqual(bad.body.detail[0].loc, ['body', 'city']);
    const good = await post(`${resources}/get_weather`, { city: 'lima' });
    assert.deepEqual(good.body, { city: 'lima', weather_description: 'The weather in lima is cold.' });
  });

  it('serves the resolved config on the head server with secrets redacted', async () => {
    const text = (await (await fetch(`${env.headUrl}/global_config_dict_yaml`)).json()) as string;
    assert.equal(typeof text, 'string');
    assert.ok(!text.includes('sk-very-secret-123'));
    const tree = parseYaml(text) as Record<string, any>;
    assert.equal(tree.policy_api_key, '[REDACTED]');
    assert.ok(tree[AGENT].responses_api_agents.simple_agent.port > 0);
  });

  it('reports every server healthy through gym env status', async () => {
    const status = await runGym(['env', 'status', '--head-url', env.headUrl, '--json']);
    assert.equal(status.code, 0, status.stderr);
    const rows = JSON.parse(status.stdout) as Array<{ healthy: boolean; status: string; uptime_seconds: number; process_name: string; entrypoint: string }>;
    assert.equal(rows.length, 3);
    assert.ok(rows.every((r) => r.healthy));
    // the original's fields of `gym env status`: its health words and the uptime
    for (const r of rows) {
      assert.equal(r.status, 'success');
      assert.ok(r.uptime_seconds > 0 && r.uptime_seconds < 3600, `${r.process_name} up ${r.uptime_seconds} s`);
      assert.equal(typeof r.entrypoint, 'string');
    }
  });

  it('lists the servers within an 80-column terminal (two lines a server when one is too wide), every field kept', async () => {
    const status = await runGym(['env', 'status', '--head-url', env.headUrl], { env: { ...process.env, COLUMNS: '80' } });
    assert.equal(status.code, 0, status.stderr);
    const lines = status.stdout.trimEnd().split('\n');
    assert.ok(
      lines.every((l) => l.length <= 80),
      status.stdout,
    );
    for (const s of env.servers) {
      const at = lines.findIndex((l) => l === `ok    ${s.process_name}`);
      assert.ok(at > 0, `${s.process_name} has a line of its own:\n${status.stdout}`);
      assert.match(lines[at + 1]!, new RegExp(`^ {8}${s.server_type} +${s.url.replace(/[.]/g, '\\.')} {2}pid ${s.pid}$`));
    }
    const wide = await runGym(['env', 'status', '--head-url', env.headUrl], { env: { ...process.env, COLUMNS: '200' } });
    assert.match(wide.stdout, new RegExp(`^ok {4}${AGENT} +responses_api_agents +http://\\S+ {2}pid \\d+$`, 'm'));
  });

  it('stops every server on SIGTERM, exits 143 saying so and leaves one log file per server', async () => {
    const code = await env.stop();
    assert.equal(code, 143, env.output());
    assert.match(env.output(), /gym: stopped by SIGTERM \(exit 143\)/);
    for (const s of env.servers) assert.equal(isAlive(s.pid), false, `${s.process_name} still running`);
    const logs = readdirSync(env.logDir)
      .filter((f) => f.endsWith('.log'))
      .sort();
    assert.deepEqual(logs, ['example_single_tool_call.log', `${AGENT}.log`, 'policy_model.log']);
    assert.match(readFileSync(join(env.logDir, 'policy_model.log'), 'utf8'), /listening on/);
  });
});

describe('gym env start with a broken config', () => {
  it('exits 2 and names the unknown reference with a suggestion', async () => {
    const run = await runGym([
      'env',
      'validate',
      '--resources-server',
      'example_single_tool_call',
      '--model-type',
      'simulated_model',
      '++example_single_tool_call_simple_agent.responses_api_agents.simple_agent.model_server.name=policy_modle',
    ]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /policy_modle/);
    assert.match(run.stderr, /policy_model/);
  });
});

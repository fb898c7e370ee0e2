// What most users run: telemetry off, or lens not installed at all. Nothing may change for them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { loadConfig } from '../../../server/src/config/load.js';
import { dumpConfigYaml } from '../../../server/src/config/dump.js';
import { createHttpClient } from '../../../server/src/http/client.js';
import { defineAgentServer, defineModelServer, defineResourcesServer, listen } from '../../../server/src/server/index.js';
import { initTelemetry } from '../../../server/src/telemetry/init.js';
import { serverTelemetrySettings } from '../../../server/src/telemetry/settings.js';
import { processTelemetry } from '../../../server/src/telemetry/process-telemetry.js';
import { REPO_ROOT, freePort, runGym } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

describe('telemetry off', () => {
  let started = 0;
  before(() => {
    // a real SDK provider registered globally: any span gym created through the API would be counted here
    const counter: SpanProcessor = { onStart: () => void started++, onEnd: () => undefined, forceFlush: async () => undefined, shutdown: async () => undefined };
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [counter] }));
  });
  after(() => trace.disable());

  it('creates no span object anywhere on the request path of the three server kinds and the client', async () => {
    assert.equal(await initTelemetry({ settings: serverTelemetrySettings({}), serverName: 'x', serverType: 'resources_servers', env: {} }), undefined);
    const seams = processTelemetry(undefined);
    assert.equal(seams.client, undefined);
    assert.equal(seams.server, undefined);
    const resources = defineResourcesServer({ name: 'r', tools: { echo: { input: z.object({ v: z.string() }), handler: (b) => b } }, verify: { handler: () => ({ reward: 1 }) } }).build();
    const model = defineModelServer({ name: 'm', responses: { handler: () => ({ output: [] }) }, chatCompletions: { handler: () => ({ choices: [] }) } }).build();
    const http = createHttpClient({ instrument: seams.client });
    const r = await listen(resources);
    const agent = defineAgentServer({
      name: 'a',
      run: { handler: async () => (await http.post<Record<string, unknown>>(`${r.url}/verify`, { responses_create_params: {}, response: { output: [] } })).body },
      responses: { handler: () => ({}) },
    }).build();
    try {
      const run = await agent.inject({ method: 'POST', url: '/run', payload: { responses_create_params: { input: 'hi' } } });
      assert.equal(run.json().reward, 1);
      assert.equal((await resources.inject({ method: 'POST', url: '/echo', payload: { v: 'x' } })).statusCode, 200);
      assert.equal((await model.inject({ method: 'POST', url: '/v1/responses', payload: { input: 'hi' } })).statusCode, 200);
      assert.equal((await model.inject({ method: 'POST', url: '/v1/chat/completions', payload: { messages: [{ role: 'user', content: 'hi' }] } })).statusCode, 200);
      assert.equal(started, 0);
    } finally {
      await http.close();
      await resources.close();
    }
  });
});

describe('lens and the OpenTelemetry packages not installed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-no-lens-'));
  const blocker = join(dir, 'block-telemetry.mjs');
  writeFileSync(
    blocker,
    [
      "import { register } from 'node:module';",
      "register('data:text/javascript,' + encodeURIComponent(`export async function resolve(specifier, context, next) {",
      "  if (specifier === '@gym/lens' || specifier.startsWith('@opentelemetry/')) { const e = new Error('Cannot find package ' + specifier); e.code = 'ERR_MODULE_NOT_FOUND'; throw e; }",
      '  return next(specifier, context);',
      '}`));',
    ].join('\n'),
  );
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const enabled of ['0', '1']) {
    it(`runs a rollout unchanged with telemetry ${enabled === '1' ? 'requested' : 'off'}`, async () => {
      const logDir = join(dir, `logs-${enabled}`);
      const head = await freePort();
      const env = telemetryEnv({ NODE_OPTIONS: `--import=${blocker}`, NEMO_GYM_OTEL_ENABLED: enabled, NEMO_GYM_OTEL_EXPORTER: 'console' });
      const child = spawn(
        process.execPath,
        [
          join(REPO_ROOT, 'packages/runtime/bin/gym.mjs'),
          'env',
          'start',
          '--resources-server',
          'example_single_tool_call',
          '--model-type',
          'simulated_model',
          `++head_server.port=${head}`,
          '--log-dir',
          logDir,
        ],
        { cwd: REPO_ROOT, env },
      );
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      try {
        for (let i = 0; i < 300 && !output.includes('head server: http'); i++) await new Promise((r) => setTimeout(r, 100));
        const servers = (await (await fetch(`http://127.0.0.1:${head}/server_instances`)).json()) as Array<{ server_type: string; url: string }>;
        const agent = servers.find((s) => s.server_type === 'responses_api_agents')!.url;
        const row = JSON.parse(readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!);
        const res = await fetch(`${agent}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(row) });
        assert.equal(res.status, 200);
        assert.equal(((await res.json()) as { reward: number }).reward, 1);
        assert.equal(res.headers.get('traceresponse'), null);
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exited, 143, output);
      const warnings = output.match(/GYM_W001/g) ?? [];
      assert.equal(warnings.length, enabled === '1' ? 4 : 0, output); // once per process: orchestrator + three servers
    });
  }
});

describe('invalid telemetry settings', () => {
  it('gym env start refuses to start and names the key and the valid values', async () => {
    const run = await runGym(['env', 'start', '--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model', '++telemetry.enabled=true', '++telemetry.exporter=zipkin'], {
      env: telemetryEnv({}),
    });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /telemetry\.exporter='zipkin': expected one of otlp, console/);
  });

  it('a server given a bad value by hand warns once and serves without telemetry', async () => {
    const config = await loadConfig({ rootDir: REPO_ROOT, selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] } });
    const resources = config.servers.find((s) => s.serverType === 'resources_servers')!;
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', join(REPO_ROOT, 'packages/server/src/server-process/server-main.ts'), join(REPO_ROOT, 'resources_servers/example_single_tool_call/app.ts')],
      {
        cwd: REPO_ROOT,
        env: telemetryEnv({ NEMO_GYM_CONFIG_DICT: dumpConfigYaml(config.raw), NEMO_GYM_CONFIG_PATH: resources.instanceName, NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_TRACES_ENABLED: 'perhaps' }),
      },
    );
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      for (let i = 0; i < 300 && !output.includes('listening on'); i++) await new Promise((r) => setTimeout(r, 100));
      const res = await fetch(`http://127.0.0.1:${resources.port}/get_weather`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"city":"kyiv"}' });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('traceresponse'), null);
    } finally {
      child.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
    assert.equal((output.match(/GYM_W002/g) ?? []).length, 1, output);
    assert.match(output, /NEMO_GYM_OTEL_TRACES_ENABLED/);
    assert.ok(!output.includes('"type":"span"'));
  });
});

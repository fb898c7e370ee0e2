// Agent, model and resources servers on three "hosts" — three network namespaces joined by veth
// pairs — each configured by its address, and one rollout read back as one trace across them.
// Needs root (ip netns); skipped with the reason elsewhere.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dumpConfigYaml } from '../../../server/src/config/dump.js';
import { loadConfig } from '../../../server/src/config/load.js';
import { typescriptNodeFlags } from '../../src/orchestrator/node-flags.js';
import { readRecords } from '../support/console-records.js';
import { REPO_ROOT } from '../support/gym-process.js';

const SERVER_MAIN = fileURLToPath(new URL('../../../server/src/server-process/server-main.ts', import.meta.url));
const AGENT = 'example_single_tool_call_simple_agent';
const ROW = readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;
const tag = (process.pid % 10000).toString(36);
const NS = { agent: `gym-a-${tag}`, model: `gym-m-${tag}`, resources: `gym-r-${tag}` };
// a /24 per link: test runner ↔ agent, agent ↔ model, agent ↔ resources
const NET = 10 + (process.pid % 200);
const ADDR = { runner: `10.${NET}.1.1`, agent: `10.${NET}.1.2`, agentToModel: `10.${NET}.2.1`, model: `10.${NET}.2.2`, agentToResources: `10.${NET}.3.1`, resources: `10.${NET}.3.2` };

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: 'pipe' });
}

/** Why the test cannot run here, or undefined when it can. */
function unsupported(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces need Linux';
  if (process.getuid?.() !== 0) return 'creating network namespaces needs root';
  const probe = spawnSync('ip', ['netns', 'add', `gym-p-${tag}`], { encoding: 'utf8' });
  if (probe.status !== 0) return `ip netns is not permitted here (${(probe.stderr || probe.error?.message || '').trim()})`;
  spawnSync('ip', ['netns', 'del', `gym-p-${tag}`]);
  return undefined;
}

/** A veth pair between namespace `a` (or the runner's, when undefined) and `b`, addressed on a /24. */
function link(name: string, a: string | undefined, aAddr: string, b: string, bAddr: string): void {
  ip('link', 'add', `${name}a`, 'type', 'veth', 'peer', 'name', `${name}b`);
  if (a !== undefined) ip('link', 'set', `${name}a`, 'netns', a);
  ip('link', 'set', `${name}b`, 'netns', b);
  ip(...(a === undefined ? [] : ['-n', a]), 'addr', 'add', `${aAddr}/24`, 'dev', `${name}a`);
  ip(...(a === undefined ? [] : ['-n', a]), 'link', 'set', `${name}a`, 'up');
  ip('-n', b, 'addr', 'add', `${bAddr}/24`, 'dev', `${name}b`);
  ip('-n', b, 'link', 'set', `${name}b`, 'up');
}

const reason = unsupported();

describe('servers on three hosts', { skip: reason === undefined ? false : `skipped: ${reason}` }, () => {
  const children: ChildProcess[] = [];
  let logDir: string;
  before(async () => {
    for (const ns of Object.values(NS)) {
      ip('netns', 'add', ns);
      ip('-n', ns, 'link', 'set', 'lo', 'up');
    }
    link(`g${tag}r`, undefined, ADDR.runner, NS.agent, ADDR.agent);
    link(`g${tag}m`, NS.agent, ADDR.agentToModel, NS.model, ADDR.model);
    link(`g${tag}s`, NS.agent, ADDR.agentToResources, NS.resources, ADDR.resources);
    logDir = mkdtempSync(join(tmpdir(), 'gym-hosts-'));
    // one resolved config for all hosts: each server block carries its host's address
    const config = await loadConfig({
      rootDir: REPO_ROOT,
      selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'], searchDirs: [REPO_ROOT] },
      overrides: [
        `++${AGENT}.responses_api_agents.simple_agent.host=${ADDR.agent}`,
        `++${AGENT}.responses_api_agents.simple_agent.port=8000`,
        `++policy_model.responses_api_models.simulated_model.host=${ADDR.model}`,
        '++policy_model.responses_api_models.simulated_model.port=8000',
        `++example_single_tool_call.resources_servers.example_single_tool_call.host=${ADDR.resources}`,
        '++example_single_tool_call.resources_servers.example_single_tool_call.port=8000',
      ],
      probePorts: false,
    });
    const yaml = dumpConfigYaml(config.raw);
    const servers: Array<[string, string, string]> = [
      [NS.resources, 'example_single_tool_call', 'resources_servers/example_single_tool_call/app.ts'],
      [NS.model, 'policy_model', 'responses_api_models/simulated_model/app.ts'],
      [NS.agent, AGENT, 'responses_api_agents/simple_agent/app.ts'],
    ];
    await Promise.all(
      servers.map(([ns, name, entrypoint]) => {
        const env = {
          ...process.env,
          NEMO_GYM_CONFIG_DICT: yaml,
          NEMO_GYM_CONFIG_PATH: name,
          NEMO_GYM_OTEL_ENABLED: 'true',
          NEMO_GYM_OTEL_EXPORTER: 'console',
          NEMO_GYM_OTEL_RUN_ID: `hosts${tag}`,
          GYM_TELEMETRY_CONSOLE_FILE: join(logDir, `${name}.log`),
        };
        // `ip netns exec` execs node in place: the pid is the server's
        const child = spawn('ip', ['netns', 'exec', ns, process.execPath, ...typescriptNodeFlags(), SERVER_MAIN, join(REPO_ROOT, entrypoint)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        children.push(child);
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        return new Promise<void>((resolve, reject) => {
          child.stdout.on('data', () => (out.includes('listening on') ? resolve() : undefined));
          child.once('exit', (code) => reject(new Error(`${name} exited ${code}: ${out}`)));
        });
      }),
    );
  });
  after(async () => {
    for (const child of children) if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    for (const ns of Object.values(NS)) spawnSync('ip', ['netns', 'del', ns]);
    if (logDir !== undefined) rmSync(logDir, { recursive: true, force: true });
  });

  it('runs a rollout across the three hosts as one trace', async () => {
    const res = await fetch(`http://${ADDR.agent}:8000/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ROW });
    const result = (await res.json()) as { reward: number };
    assert.equal(res.status, 200, JSON.stringify(result));
    assert.equal(result.reward, 1);
    // stop by pid and let each flush its spans
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
    const { byFile } = readRecords(logDir);
    const rollout = byFile[`${AGENT}.log`]!.find((s) => s.name === 'gym.rollout')!;
    assert.ok(rollout, 'the agent wrote gym.rollout');
    const inTrace = (file: string) => byFile[file]!.filter((s) => s.trace_id === rollout.trace_id).map((s) => s.name);
    assert.ok(inTrace('policy_model.log').includes('gym.model.responses'), 'the model host joined the trace');
    assert.ok(inTrace('example_single_tool_call.log').includes('gym.verify'), 'the resources host joined the trace');
    // the model's SERVER span hangs under a CLIENT span of the agent, across the namespace boundary
    const modelServer = byFile['policy_model.log']!.find((s) => s.trace_id === rollout.trace_id && s.kind === 'SERVER')!;
    const parent = byFile[`${AGENT}.log`]!.find((s) => s.span_id === modelServer.parent_span_id);
    assert.equal(parent?.name, 'HTTP POST');
    assert.equal(parent?.attributes['server.address'], ADDR.model, 'the agent reached the model by its configured address');
  });
});

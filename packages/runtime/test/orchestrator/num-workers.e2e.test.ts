// `num_workers: 2` on the agent: one cluster primary, two worker processes sharing the port, each
// with its own telemetry; listed on the head server, stopped with the environment, and a worker that
// dies takes the server down visibly. Real processes on loopback.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '@gym/server';
import { startEnvironment } from '@gym/runtime';
import type { RunningEnvironment } from '@gym/runtime';
import { readRecords } from '../support/console-records.js';
import { REPO_ROOT, freePort, isAlive } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const AGENT = 'example_single_tool_call_simple_agent';
const ROW = readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;
const DISPLAY_FIELDS = ['config_path', 'dir_path', 'entrypoint', 'host', 'name', 'pid', 'port', 'process_name', 'server_type', 'start_time', 'url'];

interface Worker {
  index: number;
  pid: number;
}
interface Instance {
  process_name: string;
  pid: number;
  workers?: Worker[];
  [key: string]: unknown;
}

async function start(env: NodeJS.ProcessEnv): Promise<{ running: RunningEnvironment; logDir: string; headUrl: string }> {
  const headPort = await freePort();
  const config = await loadConfig({
    rootDir: REPO_ROOT,
    selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] },
    overrides: [`++head_server.port=${headPort}`, `++${AGENT}.responses_api_agents.simple_agent.num_workers=2`],
  });
  const logDir = mkdtempSync(join(tmpdir(), 'gym-workers-'));
  const running = await startEnvironment({ config, roots: [REPO_ROOT], logDir, env });
  return { running, logDir, headUrl: `http://127.0.0.1:${headPort}` };
}

/** POST /run on a fresh connection (no keep-alive), so the cluster hands each request to the next worker. */
function runOnNewConnection(url: string, cookie?: string): Promise<{ status: number; reward: unknown; setCookie: string | undefined }> {
  return new Promise((resolve, reject) => {
    const headers = { 'content-type': 'application/json', connection: 'close', ...(cookie === undefined ? {} : { cookie }) };
    const req = request(`${url}/run`, { method: 'POST', agent: false, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reward: (JSON.parse(body) as { reward?: unknown }).reward, setCookie: res.headers['set-cookie']?.[0]?.split(';')[0] }));
    });
    req.on('error', reject);
    req.end(ROW);
  });
}

async function disposeOf(started: { running: RunningEnvironment; logDir: string } | undefined, pids: number[]): Promise<void> {
  if (started === undefined) return;
  await started.running.stop();
  for (const pid of pids) if (isAlive(pid)) process.kill(pid, 'SIGKILL'); // only after a failed assertion
  rmSync(started.logDir, { recursive: true, force: true });
}

describe('an agent with num_workers=2, console telemetry on', () => {
  let started: Awaited<ReturnType<typeof start>> | undefined;
  let instances: Instance[] = [];
  let workers: Worker[] = [];
  let primaryPid = 0;
  before(async () => {
    started = await start(telemetryEnv({ NEMO_LENS_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'default' }));
    instances = (await (await fetch(`${started.headUrl}/server_instances`)).json()) as Instance[];
    const agent = instances.find((i) => i.process_name === AGENT)!;
    primaryPid = agent.pid;
    workers = agent.workers ?? [];
  });
  after(async () => disposeOf(started, [primaryPid, ...workers.map((w) => w.pid)]));

  it('lists the two workers on /server_instances, keeping every existing field; single servers have no workers', () => {
    assert.deepEqual(
      workers.map((w) => w.index),
      [0, 1],
    );
    assert.equal(new Set([primaryPid, ...workers.map((w) => w.pid)]).size, 3, 'primary and workers are three processes');
    for (const w of workers) assert.ok(isAlive(w.pid), `worker ${w.index} is running`);
    for (const instance of instances) {
      const expected = instance.process_name === AGENT ? [...DISPLAY_FIELDS, 'workers'].sort() : DISPLAY_FIELDS;
      assert.deepEqual(Object.keys(instance).sort(), expected, instance.process_name);
    }
  });

  it("serves rollouts from both workers, which accept each other's session cookies", async () => {
    const url = instances.find((i) => i.process_name === AGENT)!.url as string;
    const first = await runOnNewConnection(url);
    assert.equal(first.status, 200);
    assert.ok(first.setCookie, 'a new session sets its cookie');
    // in waves of concurrent requests, so both workers append to the log file at the same time;
    // a valid cookie is not re-sent, whichever worker checks it
    for (let wave = 0; wave < 4; wave++) {
      const results = await Promise.all(Array.from({ length: 8 }, () => runOnNewConnection(url, first.setCookie)));
      for (const r of results) assert.deepEqual(r, { status: 200, reward: 1, setCookie: undefined });
    }
  });

  it('stops every worker with the environment; each flushed its spans with its own service.instance.id, in whole lines', async () => {
    const agent = started!.running.servers.find((s) => s.display.process_name === AGENT)!;
    await started!.running.stop();
    assert.equal(await agent.exited, 0, 'the primary exits 0 after a requested stop');
    for (const pid of [primaryPid, ...workers.map((w) => w.pid)]) assert.equal(isAlive(pid), false, `pid ${pid} still running`);

    const log = readFileSync(join(started!.logDir, `${AGENT}.log`), 'utf8');
    for (const line of log.split('\n').filter((l) => l.length > 0)) assert.doesNotThrow(() => JSON.parse(line), `a whole JSON line: ${line.slice(0, 200)}`);
    const { byFile } = readRecords(started!.logDir);
    const servedBy = new Map<unknown, Set<unknown>>();
    for (const span of byFile[`${AGENT}.log`]!.filter((s) => s.name === 'POST /run')) {
      const resource = span.resource.attributes;
      if (!servedBy.has(resource['service.instance.id'])) servedBy.set(resource['service.instance.id'], new Set());
      servedBy.get(resource['service.instance.id'])!.add(resource['process.pid']);
    }
    assert.deepEqual(
      [...servedBy].map(([id, pids]) => [id, [...pids]]).sort(),
      workers.map((w) => [`${AGENT}-w${w.index}`, [w.pid]]),
      'POST /run spans come from both workers, each with its own service.instance.id and pid',
    );
    const runs = byFile[`${AGENT}.log`]!.filter((s) => s.name === 'POST /run').length;
    assert.equal(runs, 33, 'one SERVER span per rollout');
    for (const span of byFile['policy_model.log']!) assert.equal(span.resource.attributes['service.instance.id'], undefined, 'single-process servers are unchanged');
  });
});

describe('an agent with num_workers=2 whose worker is killed', () => {
  let started: Awaited<ReturnType<typeof start>> | undefined;
  let pids: number[] = [];
  after(async () => disposeOf(started, pids));

  it('makes the primary stop the other worker and exit non-zero, which the orchestrator sees', async () => {
    started = await start(telemetryEnv({}));
    const agent = started.running.servers.find((s) => s.display.process_name === AGENT)!;
    const workers = agent.display.workers!;
    pids = [agent.display.pid!, ...workers.map((w) => w.pid)];
    assert.equal(workers.length, 2);
    process.kill(workers[1]!.pid, 'SIGKILL');
    assert.deepEqual(await started.running.firstExit, { name: AGENT, code: 1 });
    assert.equal(isAlive(workers[0]!.pid), false, 'the surviving worker was stopped before the primary exited');
    const log = readFileSync(join(started.logDir, `${AGENT}.log`), 'utf8');
    assert.match(log, new RegExp(`worker 1 \\(pid ${workers[1]!.pid}\\) of ${AGENT} exited unexpectedly \\(SIGKILL\\)`));
  });
});

describe('console telemetry files with several writers', () => {
  it('keeps every line whole when several processes append large batches to one file at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-append-'));
    const path = join(dir, 'server.log');
    const consoleFile = new URL('../../../server/src/telemetry/console-file.ts', import.meta.url).href;
    // each writer: 200 batches of 60 lines (~20 KiB per write), as the console exporter writes a batch
    const script = `
      import { closeTelemetryFile, openTelemetryFile } from ${JSON.stringify(consoleFile)};
      const id = process.argv[1];
      const stream = openTelemetryFile({ GYM_TELEMETRY_CONSOLE_FILE: process.argv[2] });
      for (let batch = 0; batch < 200; batch++) {
        let text = '';
        for (let i = 0; i < 60; i++) text += JSON.stringify({ type: 'span', writer: id, batch, i, pad: 'x'.repeat(300) }) + '\\n';
        stream.write(text);
      }
      await closeTelemetryFile(stream);`;
    try {
      const writers = Array.from({ length: 4 }, (_, id) => {
        const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script, String(id), path], {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
        return new Promise<number | null>((resolve) => child.on('exit', resolve));
      });
      assert.deepEqual(await Promise.all(writers), [0, 0, 0, 0]);
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.length > 0);
      assert.equal(lines.length, 4 * 200 * 60);
      const seen = new Set<string>();
      for (const line of lines) {
        const record = JSON.parse(line) as { writer: string; batch: number; i: number };
        seen.add(`${record.writer}/${record.batch}/${record.i}`);
      }
      assert.equal(seen.size, lines.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

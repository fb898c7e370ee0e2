import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { receive } from '../src/commands/receive.js';
import { report } from '../src/commands/report.js';
import type { CommandOutput } from '../src/commands/output.js';
import { capture } from './support/capture.js';
import { tempDir } from './support/fixtures.js';

const MAIN = fileURLToPath(new URL('./support/cli-main.ts', import.meta.url));
const LISTEN = /gRPC on 127\.0\.0\.1:(\d+), HTTP on http:\/\/127\.0\.0\.1:(\d+)/;
const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

/** An OTLP/JSON request with a rollout-shaped parent/child pair per entry of `names`. */
function traceRequest(service: string, names: string[]): string {
  const spans = names.map((name, i) => ({
    traceId: 'ab'.repeat(16),
    spanId: (i + 1).toString(16).padStart(16, '0'),
    parentSpanId: i === 0 ? '' : '0000000000000001',
    name,
    kind: i === 0 ? 1 : 3,
    startTimeUnixNano: String(1_767_225_600_000_000_000n + BigInt(i) * 1_000_000n),
    endTimeUnixNano: String(1_767_225_600_100_000_000n - BigInt(i) * 1_000_000n),
    attributes: i === 0 ? [{ key: 'nemo.gym.rollout.id', value: { stringValue: '0-0' } }] : [],
  }));
  return JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] }, scopeSpans: [{ scope: { name: 't' }, spans }] }] });
}

async function postJson(port: string, body: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/traces`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  await res.arrayBuffer();
  return res.status;
}

describe('receive', () => {
  it('prints where it listens and progress, stops on abort, and its files feed report', async () => {
    const out = tempDir();
    cleanups.push(out.cleanup);
    const c = capture();
    let listening!: (m: RegExpExecArray) => void;
    const ready = new Promise<RegExpExecArray>((r) => (listening = r));
    const watched: CommandOutput = {
      write: (t) => {
        c.write(t);
        const m = LISTEN.exec(t);
        if (m) listening(m);
      },
      error: (t) => c.error(t),
    };
    const abort = new AbortController();
    const run = receive({ out: out.dir, grpcPort: 0, httpPort: 0, progressEvery: 2, signal: abort.signal }, watched);
    const m = await ready;
    assert.equal(await postJson(m[2]!, traceRequest('nemo-gym/simple_agent', ['gym.rollout', 'HTTP POST', 'HTTP POST'])), 200);
    abort.abort();
    assert.equal(await run, 0);
    assert.match(c.out, /received 3 spans, 0 metrics, 0 log records in 1 request$/m);
    assert.match(c.out, /stopped; received 3 spans/);
    const r = capture();
    assert.equal(await report({ paths: [out.dir], out: out.path('report.html') }, r), 0, r.err);
    assert.match(r.out, /1 rollouts, 1 with waterfalls, 3 spans/);
  });

  it('rejects an invalid port with exit code 2', async () => {
    const c = capture();
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    assert.equal(await receive({ out: dir.dir, grpcPort: 70000 }, c), 2);
    assert.match(c.err, /GYM_TRACE_BAD_OPTION.*--grpc-port/);
  });
});

describe('gym trace receive (CLI)', () => {
  it('flushes its files and exits 0 on SIGTERM', async () => {
    const out = tempDir();
    cleanups.push(out.cleanup);
    const child: ChildProcess = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, 'trace', 'receive', '--grpc-port', '0', '--http-port', '0', '--out', out.dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => void (child.exitCode === null && child.pid !== undefined && process.kill(child.pid, 'SIGKILL')));
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const m = await new Promise<RegExpExecArray>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        stdout += d.toString();
        const hit = LISTEN.exec(stdout);
        if (hit) resolve(hit);
      });
      child.once('exit', () => reject(new Error(`receiver exited early: ${stderr}`)));
    });
    assert.equal(await postJson(m[2]!, traceRequest('nemo-gym/cli_agent', ['gym.rollout', 'HTTP POST'])), 200);
    const exited = once(child, 'exit');
    process.kill(child.pid!, 'SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0, stderr);
    assert.match(stdout, /stopped; received 2 spans/);
    const lines = readFileSync(out.path('nemo-gym_cli_agent.jsonl'), 'utf8').trim().split('\n');
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { name: string }).name),
      ['gym.rollout', 'HTTP POST'],
    );
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:http2';
import type { ClientHttp2Session } from 'node:http2';
import * as grpc from '@grpc/grpc-js';
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

const TRACE_EXPORT = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const GRPC_HEADERS = { ':method': 'POST', ':path': TRACE_EXPORT, 'content-type': 'application/grpc', te: 'trailers' };

/** Starts `gym trace receive` on free ports; `next` waits for a line of its stdout matching a pattern. */
async function startReceiverCli(): Promise<{ child: ChildProcess; grpcPort: string; stdout: () => string; next: (re: RegExp) => Promise<void> }> {
  const out = tempDir();
  cleanups.push(out.cleanup);
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, 'trace', 'receive', '--grpc-port', '0', '--http-port', '0', '--out', out.dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => void (child.exitCode === null && child.signalCode === null && child.pid !== undefined && process.kill(child.pid, 'SIGKILL')));
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ re: RegExp; done: () => void }> = [];
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const w of waiters.filter((x) => x.re.test(stdout))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.done();
    }
  });
  const next = (re: RegExp): Promise<void> =>
    re.test(stdout)
      ? Promise.resolve()
      : new Promise((done, reject) => {
          waiters.push({ re, done });
          child.once('exit', () => reject(new Error(`receiver exited before printing ${re}: ${stderr}`)));
        });
  await next(LISTEN);
  return { child, grpcPort: LISTEN.exec(stdout)![1]!, stdout: () => stdout, next };
}

/** Resolves once the server has read every frame sent before this call (HTTP/2 answers PINGs in order). */
async function serverHasRead(session: ClientHttp2Session): Promise<void> {
  if (session.connecting) await once(session, 'connect');
  return new Promise((resolve, reject) => session.ping((err) => (err === null ? resolve() : reject(err))));
}

/** A gRPC Export call whose message is announced as 100 bytes of which 10 are sent, then nothing. */
async function halfSentCall(port: string): Promise<ClientHttp2Session> {
  const session = connect(`http://127.0.0.1:${port}`);
  session.on('error', () => {});
  const stream = session.request(GRPC_HEADERS);
  stream.on('error', () => {});
  stream.write(Buffer.concat([Buffer.from([0, 0, 0, 0, 100]), Buffer.alloc(10)]));
  await serverHasRead(session);
  return session;
}

/** A complete (empty) Export call from a client whose flow-control window is 0: the answer can never be delivered. */
async function neverReadingCall(port: string): Promise<ClientHttp2Session> {
  const session = connect(`http://127.0.0.1:${port}`, { settings: { initialWindowSize: 0 } });
  session.on('error', () => {});
  const stream = session.request(GRPC_HEADERS);
  stream.on('error', () => {});
  const answered = once(stream, 'response');
  stream.end(Buffer.from([0, 0, 0, 0, 0]));
  await answered;
  return session;
}

/** A real gRPC client that exported once and keeps its channel open. */
async function idleGrpcClient(port: string): Promise<grpc.Client> {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  await new Promise<void>((resolve, reject) =>
    client.makeUnaryRequest(
      TRACE_EXPORT,
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.alloc(0),
      (err) => (err === null ? resolve() : reject(err)),
    ),
  );
  return client;
}

describe('gym trace receive (CLI) stops whatever its gRPC clients do', () => {
  for (const second of [false, true]) {
    it(second ? 'a second Ctrl-C stops it at once, with its totals' : 'within its grace period, with its totals', { timeout: 60_000 }, async () => {
      const rx = await startReceiverCli();
      const client = await idleGrpcClient(rx.grpcPort);
      const sessions = [await halfSentCall(rx.grpcPort), await neverReadingCall(rx.grpcPort)];
      try {
        const exited = once(rx.child, 'exit');
        process.kill(rx.child.pid!, 'SIGINT');
        await rx.next(/stopping: in-flight exports have 5 s to finish/);
        if (second) process.kill(rx.child.pid!, 'SIGINT');
        const [code, signal] = await exited;
        assert.deepEqual([code, signal], [0, null]);
        assert.match(rx.stdout(), /stopped; received 0 spans, 0 metrics, 0 log records in 2 requests/);
      } finally {
        client.close();
        sessions.forEach((s) => s.destroy());
      }
    });
  }
});

// `gym trace top` follows a run's files while they are written: rollouts done, failed and in
// flight, the slowest, each process's event loop; in a real terminal (tmux) it redraws in place
// within 80 columns and Ctrl-C ends it with exit code 0.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { top } from '../src/commands/top.js';
import { FileFollower } from '../src/live/follow-files.js';
import { STORE_DIR_NAME } from '../src/read/expand-paths.js';
import { capture } from './support/capture.js';
import type { FixtureSpan } from './support/fixtures.js';
import { AGENT, consoleLine, MODEL, RESOURCES, rolloutSpans, tempDir } from './support/fixtures.js';
import { otlpResponsesRequest } from './support/foreign-spans.js';
import { saturationLines } from './support/metric-lines.js';

const MAIN = fileURLToPath(new URL('./support/cli-main.ts', import.meta.url));
const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

const FILES: Record<string, string> = { [AGENT]: 'agent.log', [MODEL]: 'model.log', [RESOURCES]: 'resources.log' };

// A run written as it goes: each append adds the spans that ended by then.
function growingRun() {
  const d = tempDir({ 'agent.log': 'INFO: started\n', 'model.log': '', 'resources.log': '' });
  cleanups.push(d.cleanup);
  const write = (spans: FixtureSpan[]) => {
    for (const s of spans) appendFileSync(d.path(FILES[s.service]!), consoleLine(s) + '\n');
  };
  return { dir: d.dir, path: d.path, write };
}

// rollout `id`, split at the end of its model call: the first part is what is written while it runs
function rollout(id: string, atMs: number, failed = false): { running: FixtureSpan[]; rest: FixtureSpan[] } {
  const spans = rolloutSpans({ rolloutId: id, atMs }).map((s) => (failed && s.name === 'gym.model.responses' ? { ...s, status: { code: 'ERROR', message: 'overloaded' } } : s));
  const cut = atMs + 600;
  return { running: spans.filter((s) => s.endMs <= cut), rest: spans.filter((s) => s.endMs > cut) };
}

// `top` following `dir` every 50 ms, its frames kept; `waitFor` resolves on the first frame (the
// last one drawn, or one to come) that satisfies `ok`
function followTop(dir: string) {
  const frames: string[] = [];
  let waiting: { ok: (frame: string) => boolean; resolve: () => void } | null = null;
  const stop = new AbortController();
  const onFrame = (t: string) => {
    frames.push(t);
    if (waiting?.ok(t) === true) waiting.resolve();
  };
  const done = top({ paths: [dir], intervalMs: 50, signal: stop.signal }, { write: onFrame, error: (t) => assert.fail(t) });
  const waitFor = (ok: (frame: string) => boolean): Promise<void> =>
    frames.length > 0 && ok(frames.at(-1)!)
      ? Promise.resolve()
      : new Promise((resolve) => {
          waiting = { ok, resolve };
        });
  return { frames, stop, done, waitFor };
}

function counts(frame: string): { done: number; failed: number; inFlight: number } {
  const m = /rollouts {2}done (\d+) {2}failed (\d+) {2}in flight (\d+)/.exec(frame);
  assert.ok(m !== null, frame);
  return { done: Number(m[1]), failed: Number(m[2]), inFlight: Number(m[3]) };
}

describe('gym trace top', () => {
  it('--once: done, failed, in flight with their last step, the slowest, the event loops', async () => {
    const run = growingRun();
    const a = rollout('a-0', 0);
    const b = rollout('b-0', 100, true);
    const c = rollout('c-0', 200);
    run.write([...a.running, ...a.rest, ...b.running, ...b.rest, ...c.running]);
    appendFileSync(run.path('agent.log'), saturationLines({ service: AGENT, pid: 1 }, { elu: 0.83, delayP99Ms: 42 }, 0, 2000).join('\n') + '\n');
    const out = capture();
    assert.equal(await top({ paths: [run.dir], once: true }, out), 0, out.err);
    assert.deepEqual(counts(out.out), { done: 1, failed: 1, inFlight: 1 });
    assert.match(out.out, /in flight, last step done: seed 0 {2}model 1 {2}tool 0/);
    assert.match(out.out, /^ {2}b-0 +998ms {2}failed$/m);
    assert.match(out.out, /^ {2}simple_agent +83% +42ms$/m);
    assert.ok(
      out.out.split('\n').every((l) => l.length <= 80),
      out.out,
    );
  });

  it('names a long run directory by its end, where the run id is', async () => {
    const run = growingRun();
    const dir = `${run.dir}/a-project-with-a-long-name/.gym/logs/20261130T174730Z`;
    mkdirSync(dir, { recursive: true });
    for (const s of rollout('a-0', 0).running) appendFileSync(`${dir}/${FILES[s.service]!}`, consoleLine(s) + '\n');
    const out = capture();
    assert.equal(await top({ paths: [dir], once: true }, out), 0, out.err);
    const header = out.out.split('\n')[0]!;
    assert.match(header, /^gym trace top {2}…[^ ]*logs\/20261130T174730Z {2}\d+ files/, header);
    assert.ok(header.length <= 80, header);
  });

  it('follows the files as they grow, and stops when told', async () => {
    const run = growingRun();
    const a = rollout('a-0', 0);
    const b = rollout('b-0', 50);
    run.write([...a.running, ...b.running]);
    const { stop, done, waitFor } = followTop(run.dir);
    await waitFor((f) => /in flight 2 /.test(f));
    run.write(a.rest);
    await waitFor((f) => /done 1 {2}failed 0 {2}in flight 1 /.test(f));
    run.write(b.rest);
    await waitFor((f) => /done 2 {2}failed 0 {2}in flight 0 /.test(f));
    stop.abort();
    assert.equal(await done, 0);
  });

  it('starts from the store, then follows the files from where it ends', async () => {
    const run = growingRun();
    const a = rollout('a-0', 0);
    const b = rollout('b-0', 50);
    const f = rollout('f-0', 100, true);
    // d's model call failed, and its span reaches the model's file after d's gym.rollout is stored
    const d = rolloutSpans({ rolloutId: 'd-0', atMs: 150 });
    const late = { ...d.find((s) => s.name === 'gym.model.responses')!, status: { code: 'ERROR', message: 'overloaded' } };
    const dEarly = d.filter((s) => s.name !== 'gym.model.responses');
    run.write([...a.running, ...a.rest, ...b.running, ...f.running, ...f.rest, ...dEarly]);
    const { frames, stop, done, waitFor } = followTop(run.dir);
    await waitFor((fr) => /done 2 {2}failed 1 {2}in flight 1 /.test(fr));
    assert.ok(existsSync(join(run.dir, STORE_DIR_NAME, 'manifest.json')), 'top converted the run into its store first');
    run.write([...b.rest, late]);
    await waitFor((fr) => /done 2 {2}failed 2 {2}in flight 0 /.test(fr));
    stop.abort();
    assert.equal(await done, 0);
    // the same frame as all of the files read at once, by a store of their own: no line read twice, none missed
    const copy = tempDir({});
    cleanups.push(copy.cleanup);
    for (const name of Object.values(FILES)) copyFileSync(run.path(name), copy.path(name));
    const whole = capture();
    assert.equal(await top({ paths: [copy.dir], once: true }, whole), 0, whole.err);
    assert.equal(frames.at(-1)!.replace(run.dir, '<run>').trimEnd(), whole.out.replace(copy.dir, '<run>').trimEnd());
    assert.match(whole.out, new RegExp(` ${a.running.length + a.rest.length + b.running.length + b.rest.length + f.running.length + f.rest.length + d.length} spans`));
  });

  it("counts the original's Python console spans and OTLP/JSON lines from the store as from the files", async () => {
    const run = growingRun();
    const { frames, stop, done, waitFor } = followTop(run.dir);
    // its store holds no span: everything below is read by the file reader as it is appended
    await waitFor((fr) => / 0 spans/.test(fr));
    const a = rollout('a-0', 0);
    const b = rollout('b-0', 50);
    run.write([...a.running, ...a.rest, ...b.running]);
    // b's verify, failed, as the original's Python exporter prints it (pretty-printed over lines)
    const python = {
      name: 'POST /verify',
      context: { trace_id: '0x4bf92f3577b34da6a3ce929d0e0e4736', span_id: '0x00f067aa0ba902b7' },
      kind: 'SpanKind.SERVER',
      parent_id: null,
      start_time: '2026-01-01T00:00:00.700000Z',
      end_time: '2026-01-01T00:00:00.900000Z',
      status: { status_code: 'ERROR', description: 'boom' },
      attributes: { 'http.route': '/verify', 'nemo.gym.rollout.id': 'b-0' },
      events: [],
      links: [],
      resource: { attributes: { 'service.name': 'nemo-gym/py_tool' } },
    };
    appendFileSync(run.path('py_tool.log'), `INFO: started\n${JSON.stringify(python, null, 4)}\n`);
    // o's gym.rollout span in an OTLP/JSON file (what `gym trace receive` writes)
    appendFileSync(run.path('spans.otlp.jsonl'), otlpResponsesRequest({ name: 'gym.rollout', kind: 1, attributes: [{ key: 'nemo.gym.rollout.id', value: { stringValue: 'o-0' } }] }) + '\n');
    await waitFor((fr) => / 5 files /.test(fr) && /done 2 {2}failed 0 {2}in flight 1 /.test(fr) && /verify 1 /.test(fr));
    stop.abort();
    assert.equal(await done, 0);
    const copy = tempDir({});
    cleanups.push(copy.cleanup);
    for (const name of [...Object.values(FILES), 'py_tool.log', 'spans.otlp.jsonl']) copyFileSync(run.path(name), copy.path(name));
    const stored = capture();
    assert.equal(await top({ paths: [copy.dir], once: true }, stored), 0, stored.err);
    assert.equal(stored.out.replace(copy.dir, '<run>').trimEnd(), frames.at(-1)!.replace(run.dir, '<run>').trimEnd());
  });

  const tmux = spawnSync('tmux', ['-V']).status === 0;
  it('redraws in place in a real terminal (tmux, 80 columns) and exits 0 on Ctrl-C', { skip: tmux ? false : 'tmux is not installed' }, async () => {
    const run = growingRun();
    const session = `gym-top-test-${process.pid}`;
    const status = run.path('exit-status');
    const command = [process.execPath, '--conditions=source', '--import', 'tsx', MAIN, 'trace', 'top', '--interval', '100', run.dir].map((a) => `'${a}'`).join(' ');
    execFileSync('tmux', ['new-session', '-d', '-s', session, '-x', '80', '-y', '30', `${command}; echo $? > '${status}'`]);
    cleanups.push(() => void spawnSync('tmux', ['kill-session', '-t', session]));
    const screen = () => execFileSync('tmux', ['capture-pane', '-p', '-t', session], { encoding: 'utf8' });
    const waitFor = async (ok: (s: string) => boolean) => {
      let s = '';
      for (let i = 0; i < 600 && !ok((s = screen())); i++) await sleep(50);
      assert.ok(ok(s), s);
      return s;
    };
    const rollouts = Array.from({ length: 6 }, (_, i) => rollout(`r${i}`, i * 30, i === 5));
    run.write(rollouts.flatMap((r) => r.running));
    await waitFor((s) => /in flight 6 /.test(s));
    run.write(rollouts.slice(0, 4).flatMap((r) => r.rest));
    const s1 = await waitFor((s) => /done 4 {2}failed 0 {2}in flight 2 /.test(s));
    // one frame on the screen, not one per redraw
    assert.equal(s1.match(/^gym trace top/gm)?.length, 1, s1);
    assert.match(s1, /Ctrl-C to quit/);
    run.write(rollouts.slice(4).flatMap((r) => r.rest));
    await waitFor((s) => /done 5 {2}failed 1 {2}in flight 0 /.test(s));
    execFileSync('tmux', ['send-keys', '-t', session, 'C-c']);
    for (let i = 0; i < 200 && !existsSync(status); i++) await sleep(50);
    assert.equal(readFileSync(status, 'utf8').trim(), '0');
  });
});

describe('FileFollower on a backlog', () => {
  it('reads the files of a run in step: each poll takes the same share of what each file has left', async () => {
    const line = `${'x'.repeat(99)}\n`; // 100 bytes
    const d = tempDir({ 'large.log': line.repeat(1000), 'small.log': line.repeat(250) });
    cleanups.push(d.cleanup);
    const lines = new Map<string, number>();
    const follower = new FileFollower([d.dir], (file) => lines.set(file, (lines.get(file) ?? 0) + 1));
    // a quarter of the large file per poll: byte for byte, the small one would be read whole at once
    await follower.poll(25_000);
    assert.equal(lines.get(d.path('large.log')), 250);
    assert.equal(lines.get(d.path('small.log')), 62); // a quarter of 25,000 bytes; the 63rd line is not whole yet
    while ((await follower.poll(25_000)) > 0);
    assert.deepEqual([lines.get(d.path('large.log')), lines.get(d.path('small.log')), follower.behindBytes], [1000, 250, 0]);
  });
});

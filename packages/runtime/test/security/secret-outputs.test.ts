// A configured secret never appears in any output gym writes — a Python
// server's output through the log tee, results rows (a key echoed in a successful reply), capture
// files (0600 in a 0700 directory) — and `gym env resolve` warns about a key on the command line
// as `gym env start` does.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { createSecretScrubber, setProcessScrubber } from '../../../server/src/config/secret-scrub.js';
import { CaptureStore } from '../../../server/src/evidence/capture-store.js';
import { teeChildOutput } from '../../src/orchestrator/log-tee.js';
import { openJsonlAppender } from '../../src/rollouts/rollout-files.js';
import { runGym } from '../support/gym-process.js';

const KEY = 'sk-live"key\\with!odd chars';

describe('a configured secret in what gym writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-secret-outputs-'));
  setProcessScrubber(createSecretScrubber([KEY]));
  after(() => {
    setProcessScrubber(undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it("is scrubbed out of a server's output, in its log file and on the terminal, however it was encoded", async () => {
    const out = new PassThrough();
    let shown = '';
    const terminal = new Writable({ write: (chunk, _e, done) => ((shown += chunk), done()) });
    const logPath = join(dir, 'py.log');
    const tee = teeChildOutput(out, new PassThrough().end(), { name: 'py', logPath, terminal, terminalErr: null });
    out.write(`calling with key ${KEY}\n`);
    out.write(`GET /v1?key=${encodeURIComponent(KEY)}\n`);
    out.write(`${new URLSearchParams({ key: KEY }).toString()}\n`);
    out.end(`${JSON.stringify({ body: JSON.stringify({ error: KEY }) })}\n`);
    await tee.close();
    const file = readFileSync(logPath, 'utf8');
    for (const text of [file, shown]) {
      assert.doesNotMatch(text, /live/, text);
      assert.equal(text.match(/\[REDACTED\]/g)?.length, 4, text);
    }
  });

  it("is scrubbed out of a results row's response (the agent relayed a key in a successful reply)", () => {
    const path = join(dir, 'out.jsonl');
    const appender = openJsonlAppender(path, { replace: true });
    appender.append({ _ng_task_index: 0, _ng_rollout_index: 0, response: { output_text: `your key is ${KEY}` }, nested: JSON.stringify({ echoed: KEY }) });
    appender.close();
    const row = JSON.parse(readFileSync(path, 'utf8')) as { response: { output_text: string }; nested: string };
    assert.equal(row.response.output_text, 'your key is [REDACTED]');
    assert.equal(row.nested, '{"echoed":"[REDACTED]"}');
  });

  it('goes into no capture file, and capture files are 0600 in a 0700 directory (they hold whole prompts)', async () => {
    const store = new CaptureStore(join(dir, 'captures', 'run'));
    await store.append('r1', { request: { input: `use ${KEY}` } });
    assert.equal(statSync(store.root).mode & 0o777, 0o700);
    assert.equal(statSync(store.pathFor('r1')).mode & 0o777, 0o600);
    assert.doesNotMatch(readFileSync(store.pathFor('r1'), 'utf8'), /live/);
  });
});

describe('gym env resolve with a key on the command line', () => {
  it('warns as gym env start does (GYM_CLI_W001), and prints the key redacted', async () => {
    const run = await runGym(['env', 'resolve', '--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model', '++policy_api_key=sk-on-the-command-line-1234']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /warning: GYM_CLI_W001: the override of 'policy_api_key' puts a secret on the command line, visible in ps/);
    assert.doesNotMatch(run.stdout, /sk-on-the-command-line/);
  });
});

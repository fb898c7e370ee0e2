// A closed or broken stdout never changes what a run does: `gym eval run … | head -1`, and Ctrl-C
// with output piped into a reader that the same Ctrl-C ends (`| tee log`).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, GYM_BIN, REPO_ROOT } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const ENV = ['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'];
const lines = (path: string) =>
  existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
    : [];

async function evalRun(dir: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [GYM_BIN, 'eval', 'run', ...ENV, '-o', join(dir, 'out.jsonl'), '--log-dir', join(dir, 'logs'), ...args, `++head_server.port=${await freePort()}`], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (stderr += chunk));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return { child, stderr: () => stderr, exit };
}

describe('gym eval run with its stdout closed early', () => {
  it('| head -1: the run completes, every file is written and the summary goes to stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-head-'));
    try {
      const run = await evalRun(dir, ['--num-repeats', '2']);
      // head -1: read one line, then close the pipe
      await once(run.child.stdout, 'data');
      run.child.stdout.destroy();
      assert.equal(await run.exit, 0, run.stderr());
      assert.equal(lines(join(dir, 'out.jsonl')).length, 10);
      assert.ok(existsSync(join(dir, 'out_failures.jsonl')));
      assert.ok(existsSync(join(dir, 'out_aggregate_metrics.json')));
      assert.match(run.stderr(), /rollouts: 10 succeeded, 0 failed this run; 10\/10 complete/);
      assert.doesNotMatch(run.stderr(), /internal error|EPIPE/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Ctrl-C with output piped: no rollout starts after it, in-flight ones drain, spans are flushed, the summary is printed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gym-ctrlc-'));
    try {
      const run = await evalRun(
        dir,
        ['--num-repeats', '20', '--concurrency', '2', '++policy_model.responses_api_models.simulated_model.latency.fixed_ms=150'],
        telemetryEnv({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console' }),
      );
      const out = join(dir, 'out.jsonl');
      while (lines(out).length < 2) await new Promise((resolve) => setTimeout(resolve, 50));
      // a terminal's Ctrl-C reaches the whole pipeline: the reader (tee) ends, gym gets SIGINT
      run.child.stdout.destroy();
      const doneBefore = lines(out).length;
      run.child.kill('SIGINT');
      assert.equal(await run.exit, 130, run.stderr());
      assert.match(run.stderr(), /gym: interrupted: no new rollouts start/);
      assert.match(run.stderr(), /gym: stopped by SIGINT \(exit 130\)/);
      assert.match(run.stderr(), /rollouts: \d+ succeeded, 0 failed this run; \d+\/100 complete/, 'the summary reached stderr');
      assert.ok(run.stderr().includes(`rollouts not done; run again with --resume -o ${out} to finish them`), run.stderr());
      // with --concurrency 2, at most two rollouts were in flight at the Ctrl-C; they finished
      const rows = lines(out).length;
      assert.ok(rows >= doneBefore && rows <= doneBefore + 2, `${rows} rows after Ctrl-C, ${doneBefore} before`);
      assert.ok(existsSync(join(dir, 'out_failures.jsonl')), 'the failures sidecar is written');
      assert.doesNotMatch(readFileSync(join(dir, 'out_failures.jsonl'), 'utf8'), /after the HTTP client was closed/);
      const collector = readFileSync(join(dir, 'logs', 'collector.log'), 'utf8');
      assert.match(collector, /"type":"span"/, "the collector's spans were flushed");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// A collector that accepts connections and never answers: the rollouts are unaffected, every
// process gives up on it because it stopped answering (not at a fixed timeout), and the run's report
// of losses is the sum of what each process counted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_EVAL_RUN, freePort, runGym } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

describe('gym eval run with a silent OTLP collector', () => {
  it('collects every rollout, stops without waiting on the collector, and reports the exact losses', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const dir = mkdtempSync(join(tmpdir(), 'gym-silent-'));
    try {
      const run = await runGym([...EXAMPLE_EVAL_RUN, '--limit', '3', '-o', join(dir, 'out.jsonl'), '--log-dir', join(dir, 'logs'), `++head_server.port=${await freePort()}`], {
        cwd: dir,
        env: telemetryEnv({
          NEMO_GYM_OTEL_ENABLED: '1',
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
          NEMO_GYM_OTEL_SPAN_GROUPS: 'per_rollout',
        }),
      });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(readFileSync(join(dir, 'out.jsonl'), 'utf8').trim().split('\n').length, 3);
      // each process gave up because nothing answered, long before any exporter's own timeout
      assert.match(run.stderr, /Flushing traces did not finish \(no export answered for 1500 ms\)/);
      const perProcess = [...run.stderr.matchAll(/LENS_W011\] LensWarning: Telemetry lost by this process: (\d+) of (\d+) spans/g)].map((m) => {
        assert.equal(m[1], m[2], 'a silent collector receives nothing');
        return Number(m[1]);
      });
      assert.equal(perProcess.length, 4, 'the CLI and its three servers each report their losses');
      const total = /gym: telemetry not delivered: (\d+) of (\d+) spans, (\d+) of (\d+) metric points \(in 4 processes/.exec(run.stderr);
      assert.ok(total, run.stderr);
      assert.equal(
        Number(total[1]),
        perProcess.reduce((a, b) => a + b, 0),
        'the run total is the sum of what each process counted',
      );
      assert.ok(Number(total[1]) > 0);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// One clock per host: the orchestrator anchors its span clock once and hands the anchor to every
// server it starts, so a span in a callee process never starts before its caller's span (nor ends
// after it), even with both cores busy. Each process anchoring to the wall clock on its own was off
// by up to a millisecond, which put `POST /v1/responses` before its parent `HTTP POST` under load.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecords } from '../support/console-records.js';
import { consoleTelemetryRun, EXAMPLE_EVAL_RUN, runGym } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

interface TimedSpan {
  file: string;
  name: string;
  span_id: string;
  parent_span_id: string | null;
  start: bigint;
  end: bigint;
}

describe('spans of several processes on one host, with every core busy', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-nesting-'));
  const burners: ChildProcess[] = [];
  let spans: TimedSpan[];

  before(async () => {
    // one busy loop per core, for the whole run; stopped by pid below
    for (let i = 0; i < 2; i++) burners.push(spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }));
    const logDir = join(dir, 'logs');
    const run = await runGym([...EXAMPLE_EVAL_RUN, ...(await consoleTelemetryRun(join(dir, 'out.jsonl'), logDir, 'default')), '+num_repeats=8', '--concurrency', '8'], { env: telemetryEnv({}) });
    assert.equal(run.code, 0, run.stderr);
    spans = Object.entries(readRecords(logDir).byFile).flatMap(([file, lines]) =>
      lines.map((s) => ({ file, name: s.name, span_id: s.span_id, parent_span_id: s.parent_span_id, start: BigInt(s.start_time_unix_nano), end: BigInt(s.end_time_unix_nano) })),
    );
  });
  after(() => {
    for (const burner of burners) burner.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('never starts a child span before its parent in another process, nor ends it after', () => {
    const byId = new Map(spans.map((s) => [s.span_id, s]));
    const crossing = spans.filter((s) => s.parent_span_id !== null && byId.has(s.parent_span_id) && byId.get(s.parent_span_id)!.file !== s.file);
    // every rollout makes at least three hops (model, seed, verify) into other processes
    assert.ok(crossing.length >= 3 * 8 * 5, `${crossing.length} spans under a parent in another process`);
    const outside = crossing.filter((child) => {
      const parent = byId.get(child.parent_span_id!)!;
      return child.start < parent.start || child.end > parent.end;
    });
    const describe = (child: TimedSpan) => {
      const parent = byId.get(child.parent_span_id!)!;
      return `${child.name} (${child.file}) starts ${Number(child.start - parent.start) / 1e3} µs after ${parent.name} (${parent.file}) and ends ${Number(parent.end - child.end) / 1e3} µs before it`;
    };
    assert.deepEqual(outside.map(describe), []);
  });
});

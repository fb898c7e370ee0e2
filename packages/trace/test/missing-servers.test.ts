// A process's log file cut in half, or lost: the CLIENT calls into it that left no SERVER span are
// counted per callee ("N SERVER spans missing from <service>"), not reported as an orphan or two.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { anomalies } from '../src/commands/anomalies.js';
import { capture } from './support/capture.js';
import { consoleLine, RESOURCES } from './support/fixtures.js';
import { runSpans, writeSaturatedRun } from './support/saturated-run.js';
import type { RunShape } from './support/saturated-run.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

const RUN: RunShape = { rollouts: 12, spacingMs: 5, shape: () => ({}) };

interface Report {
  counts: Record<string, number>;
  findings: Array<{ kind: string; callee?: string; count?: number; calleeSeen?: boolean }>;
}

async function anomaliesOf(dir: string): Promise<{ doc: Report; text: string }> {
  const j = capture();
  assert.equal(await anomalies({ paths: [dir], format: 'json' }, j), 0, j.err);
  const t = capture();
  await anomalies({ paths: [dir] }, t);
  return { doc: JSON.parse(j.out) as Report, text: t.out };
}

describe('missing SERVER spans', () => {
  it("counts the SERVER spans cut from the end of a callee's log file", async () => {
    const spans = runSpans(RUN);
    const d = writeSaturatedRun(RUN, spans);
    cleanups.push(d.cleanup);
    // keep the first half of weather.log, the last kept line cut mid-record as a crash leaves it
    const lines = readFileSync(d.path('weather.log'), 'utf8').trimEnd().split('\n');
    const keep = Math.floor(lines.length / 2);
    writeFileSync(d.path('weather.log'), [...lines.slice(0, keep), lines[keep]!.slice(0, 80)].join('\n'));
    const kept = new Set(lines.slice(0, keep));
    const lost = spans.filter((s) => s.service === RESOURCES && s.kind === 'SERVER' && !kept.has(consoleLine(s))).length;
    assert.ok(lost >= 8, `the cut removes many SERVER spans (${lost})`);
    const { doc, text } = await anomaliesOf(d.dir);
    assert.equal(doc.counts['missing_server_spans'], lost);
    const finding = doc.findings.find((f) => f.kind === 'missing_server_spans')!;
    assert.deepEqual([finding.callee, finding.count, finding.calleeSeen], [RESOURCES, lost, true]);
    assert.match(
      text,
      new RegExp(
        `^  ${lost} SERVER spans missing from weather — calls from simple_agent; its other spans are in the input: its log file was cut, or it was killed before writing these \\(e\\.g\\.`,
        'm',
      ),
    );
    assert.ok(doc.counts['orphan_span']! <= 1, 'at most the one span whose parent the cut took');
  });

  it("counts a whole lost file by the callee's address", async () => {
    const d = writeSaturatedRun(RUN);
    cleanups.push(d.cleanup);
    rmSync(d.path('policy_model.log'));
    const { doc, text } = await anomaliesOf(d.dir);
    assert.equal(doc.counts['missing_server_spans'], RUN.rollouts);
    const finding = doc.findings.find((f) => f.kind === 'missing_server_spans')!;
    assert.deepEqual([finding.callee, finding.calleeSeen], ['127.0.0.1:9001', false]);
    assert.match(
      text,
      /^ {2}12 SERVER spans missing from 127\.0\.0\.1:9001 — calls from simple_agent; no span of it is in the input: it runs without tracing \(a Python server writes spans only with nemo-lens installed in its environment\), its log file is missing, or it was killed before writing any \(e\.g\./m,
    );
  });

  it('finds nothing missing in a complete run', async () => {
    const d = writeSaturatedRun(RUN);
    cleanups.push(d.cleanup);
    const { doc } = await anomaliesOf(d.dir);
    assert.equal(doc.counts['missing_server_spans'], 0);
  });
});

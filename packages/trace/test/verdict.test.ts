// One verdict per rollout: under the `default` preset without gym.verify spans, show (tree, list,
// --failed), why, anomalies and the report must agree on verified, reward, error and no verify.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { anomalies } from '../src/commands/anomalies.js';
import { report } from '../src/commands/report.js';
import { show } from '../src/commands/show.js';
import { why } from '../src/commands/why.js';
import type { ReportData } from '../src/report/report-data.js';
import { capture } from './support/capture.js';
import { defaultPresetSpans, writeRunLogs } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';

// rollout → what its spans say, and the verdict every command must show
const CASES = {
  '0-0': { label: 'reward 1', status: 'ok', reward: 1 }, // reward on gym.rollout
  '1-0': { label: 'reward 0', status: 'ok', reward: 0 }, // reward 0 is verified, not failed
  '2-0': { label: 'verified', status: 'ok', reward: null }, // only the POST /verify SERVER span
  '3-0': { label: 'error', status: 'error', reward: null }, // /run answered 500 (status left UNSET)
  '4-0': { label: 'no verify', status: 'no_verify', reward: null }, // never called /verify
} as const;

function presetWithoutVerifySpans(): FixtureSpan[] {
  const spans = defaultPresetSpans(Object.keys(CASES));
  const rid = (s: FixtureSpan) => s.attributes?.['nemo.gym.rollout.id'] as string | undefined;
  const verifyClients = new Set(spans.filter((s) => s.kind === 'CLIENT' && String(s.attributes?.['url.full'] ?? '').endsWith('/verify') && rid(s) === '4-0').map((s) => s.spanId));
  return spans
    .filter((s) => s.name !== 'gym.verify')
    .filter((s) => !verifyClients.has(s.spanId) && !verifyClients.has(s.parentSpanId ?? ''))
    .map((s) => {
      if (s.name === 'gym.rollout' && rid(s) === '0-0') return { ...s, attributes: { ...s.attributes, 'gym.verify.reward': 1 } };
      if (s.name === 'gym.rollout' && rid(s) === '1-0') return { ...s, attributes: { ...s.attributes, 'gym.verify.reward': 0 } };
      return s;
    })
    .map((s, _i, all) => {
      // the agent's /run span of rollout 3-0 answered 500
      const child = all.find((c) => c.parentSpanId === s.spanId && c.name === 'gym.rollout');
      return s.name === 'POST /run' && child !== undefined && rid(child) === '3-0' ? { ...s, attributes: { ...s.attributes, 'http.response.status_code': 500 } } : s;
    });
}

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
let dir: string;
before(() => {
  const d = writeRunLogs(presetWithoutVerifySpans());
  cleanups.push(d.cleanup);
  dir = d.dir;
});

describe('the rollout verdict is the same everywhere', () => {
  it('show draws it on the rollout line of each tree', async () => {
    for (const [id, want] of Object.entries(CASES)) {
      const c = capture();
      assert.equal(await show({ paths: [dir], rollout: id }, c), 0, c.err);
      const line = c.out.split('\n').find((l) => /gym\.rollout /.test(l))!;
      assert.match(line, new RegExp(`rollout ${id}, ${want.label}$`), line);
    }
  });

  it('show lists the same reward and verdict, and --failed picks the failed ones', async () => {
    const list = capture();
    await show({ paths: [dir] }, list);
    for (const [id, want] of Object.entries(CASES)) {
      assert.match(list.out, new RegExp(`^${id} +[0-9a-f]{32} +\\S+ +${want.reward ?? '-'} +${want.status.replace('_', ' ')} `, 'm'));
    }
    const failed = capture();
    await show({ paths: [dir], failed: true, format: 'json' }, failed);
    const views = (JSON.parse(failed.out) as { views: Array<{ rollout_id: string; verdict: { status: string } }> }).views;
    assert.deepEqual(
      views.map((v) => [v.rollout_id, v.verdict.status]),
      [
        ['3-0', 'error'],
        ['4-0', 'no_verify'],
      ],
    );
  });

  it('why titles each rollout with it', async () => {
    for (const [id, want] of Object.entries(CASES)) {
      const c = capture();
      assert.equal(await why({ paths: [dir], id }, c), 0, c.err);
      assert.match(c.out.split('\n')[0]!, new RegExp(` — ${want.label}`));
      const j = capture();
      await why({ paths: [dir], id, format: 'json' }, j);
      const doc = JSON.parse(j.out) as { verdict: { status: string; reward: number | null } };
      assert.deepEqual([doc.verdict.status, doc.verdict.reward], [want.status, want.reward]);
    }
  });

  it('anomalies reports only the rollout that never verified', async () => {
    const c = capture();
    await anomalies({ paths: [dir], format: 'json' }, c);
    const doc = JSON.parse(c.out) as { counts: Record<string, number>; findings: Array<{ kind: string; rolloutId?: string }> };
    assert.equal(doc.counts['missing_verify'], 1);
    assert.deepEqual(
      doc.findings.filter((f) => f.kind === 'missing_verify').map((f) => f.rolloutId),
      ['4-0'],
    );
  });

  it('the report shows the same status and reward per row', async () => {
    const c = capture();
    const out = `${dir}/report.html`;
    assert.equal(await report({ paths: [dir], out }, c), 0, c.err);
    const m = /<script type="application\/json" id="gym-trace-data">([\s\S]*?)<\/script>/.exec(readFileSync(out, 'utf8'))!;
    const data = JSON.parse(m[1]!) as ReportData;
    for (const [id, want] of Object.entries(CASES)) {
      const row = data.rows.find((r) => r.id === id)!;
      assert.deepEqual([row.status, row.reward], [want.status, want.reward], id);
    }
  });
});

// `gym trace sql` with DuckDB over the run's index: the recipes of docs/trace.md give the numbers
// the other commands give, whatever format the spans were written in.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from '../src/commands/sql.js';
import { stats } from '../src/commands/stats.js';
import { capture } from './support/capture.js';
import { AGENT, bare, defaultPresetSpans, MODEL, RESOURCES, rolloutSpans, writeRunLogs } from './support/fixtures.js';
import { otlpResponsesRequest, pythonVerifyLog } from './support/foreign-spans.js';
import { COLLECTOR } from './support/phased-rollouts.js';
import { writeSaturatedRun } from './support/saturated-run.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

const DOCS = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'trace.md'), 'utf8');

// The recipes as docs/trace.md prints them: one `gym trace sql "…"` per comment.
const RECIPES = [...DOCS.matchAll(/^# (.+)\ngym trace sql "([^"]+)"/gm)].map((m) => ({ title: m[1]!, query: m[2]!.replace(/\s*\n\s*/g, ' ') }));

function recipe(title: string): string {
  const r = RECIPES.find((x) => x.title.startsWith(title));
  assert.ok(r !== undefined, `docs/trace.md has the recipe "${title}" (found: ${RECIPES.map((x) => x.title).join('; ')})`);
  return r.query;
}

async function query<T>(dir: string, q: string): Promise<T[]> {
  const c = capture();
  assert.equal(await sql({ paths: [dir], query: q, format: 'json' }, c), 0, c.err);
  return JSON.parse(c.out) as T[];
}

// console lines with log text, a Python SDK span (pretty-printed), an OTLP/JSON request, errors,
// a truncated span and a rollout without verification
function mixedRun() {
  const spans = [
    ...defaultPresetSpans(['0-0', '1-0', '2-0']),
    ...rolloutSpans({ rolloutId: 'solo', atMs: 200, reward: 0.5 }).map((s) => (s.name === 'gym.model.responses' ? { ...s, status: { code: 'ERROR', message: 'overloaded' } } : s)),
    bare('gym.sandbox.exec', 'cccccccccccccccc', null, 5, 900, { service: RESOURCES, attributes: { 'nemo.span.truncated': true } }),
  ];
  const d = writeRunLogs(spans);
  cleanups.push(d.cleanup);
  writeFileSync(d.path('py_tool.log'), pythonVerifyLog({ status_code: 'ERROR', description: 'boom' }));
  writeFileSync(d.path('otlp.jsonl'), otlpResponsesRequest({ attributes: [{ key: 'http.route', value: { stringValue: '/v1/responses' } }] }) + '\n');
  return d;
}

interface StatsJson {
  groups: Array<{ key: string; count: number; errorCount: number; p50: number; p95: number; p99: number; max: number }>;
  rolloutCount: number;
}

describe('gym trace sql', () => {
  it('the per-name recipe gives the numbers of `gym trace stats`, over every input format', async () => {
    const d = mixedRun();
    const c = capture();
    assert.equal(await stats({ paths: [d.dir], format: 'json' }, c), 0, c.err);
    const expected = (JSON.parse(c.out) as StatsJson).groups.map((g) => ({ name: g.key, count: g.count, errors: g.errorCount, p50: g.p50, p95: g.p95, p99: g.p99, max: g.max }));
    const rows = await query<Record<string, number | string>>(d.dir, recipe('what `gym trace stats` prints'));
    const byName = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a['name']).localeCompare(String(b['name']));
    assert.deepEqual(rows.sort(byName), expected.sort(byName));
    assert.ok(
      rows.some((r) => r['name'] === 'POST /verify' && r['errors'] === 1),
      'the Python span is there, with its error',
    );
    assert.ok(
      rows.some((r) => r['name'] === 'POST /v1/responses' && r['count'] === 5),
      'the OTLP span is there',
    );
    assert.ok(!rows.some((r) => r['name'] === 'gym.sandbox.exec'), 'truncated spans are left out, as in stats');
  });

  it('rollouts, rewards, errors and tokens through the other recipes', async () => {
    const d = mixedRun();
    const slowest = await query<{ rollout_id: string; duration_ms: number; reward: number | null }>(d.dir, recipe('the ten slowest rollouts'));
    assert.equal(slowest.length, 4);
    assert.deepEqual(
      slowest.find((r) => r.rollout_id === 'solo'),
      { rollout_id: 'solo', duration_ms: 998, reward: 0.5 },
    );
    const perSecond = await query<{ rollouts: number }>(d.dir, recipe('rollouts finished per second'));
    assert.equal(
      perSecond.reduce((n, r) => n + r.rollouts, 0),
      4,
    );
    const errors = await query<{ service: string; name: string; status_message: string; n: number }>(d.dir, recipe('error spans by service'));
    assert.deepEqual(errors.map((e) => [e.service, e.name, e.status_message, e.n]).sort(), [
      ['nemo-gym/policy_model', 'gym.model.responses', 'overloaded', 1],
      ['nemo-gym/py_tool', 'POST /verify', 'boom', 1],
    ]);
    const tokens = await query<{ model: string; calls: number; input: number; output: number }>(d.dir, recipe('tokens per model'));
    assert.deepEqual(tokens, [{ model: 'qwen3-8b', calls: 4, input: 480, output: 180 }]);
    const columns = await query<{ column_name: string }>(d.dir, 'DESCRIBE spans');
    assert.ok(['rollout_id', 'service', 'duration_ms', 'source_file', 'source_line'].every((c) => columns.some((x) => x.column_name === c)));
    const source = await query<{ source_file: string; source_line: number }>(d.dir, "SELECT source_file, source_line FROM spans WHERE span_id = 'eee19b7ec3c1b175'");
    assert.deepEqual(source, [{ source_file: d.path('otlp.jsonl'), source_line: 1 }]);
  });

  it('the metrics table holds the saturation points of each process', async () => {
    const d = writeSaturatedRun({
      rollouts: 4,
      spacingMs: 400,
      shape: () => ({}),
      loads: { [AGENT]: { elu: 0.9, delayP99Ms: 80 }, [MODEL]: { elu: 0.1, delayP99Ms: 11 }, [COLLECTOR]: { elu: 0.05, delayP99Ms: 10 } },
    });
    cleanups.push(d.cleanup);
    const rows = await query<{ service: string; elu: number }>(d.dir, recipe("each process's event-loop utilization"));
    const mean = (service: string) => rows.filter((r) => r.service === service).reduce((n, r, _i, all) => n + r.elu / all.length, 0);
    assert.ok(Math.abs(mean(AGENT) - 0.9) < 0.01, `agent ${mean(AGENT)}`);
    assert.ok(Math.abs(mean(MODEL) - 0.1) < 0.01, `model ${mean(MODEL)}`);
    assert.equal(
      rows.some((r) => r.service === RESOURCES),
      false,
    );
  });

  it('a query DuckDB rejects is a user error (exit 2) naming the tables', async () => {
    const d = mixedRun();
    const c = capture();
    assert.equal(await sql({ paths: [d.dir], query: 'SELEC name FROM spans' }, c), 2);
    assert.match(c.err, /GYM_TRACE_SQL_ERROR.*syntax error.*tables: spans, metrics/);
    const bad = capture();
    assert.equal(await sql({ paths: [d.dir], query: 'SELECT 1', memoryLimit: 'lots' }, bad), 2);
    assert.match(bad.err, /GYM_TRACE_BAD_OPTION.*--memory-limit/);
  });

  it('a misspelt column gets the columns DuckDB suggests', async () => {
    const d = mixedRun();
    const c = capture();
    assert.equal(await sql({ paths: [d.dir], query: 'SELECT nam FROM spans' }, c), 2);
    assert.match(c.err, /GYM_TRACE_SQL_ERROR.*"nam" not found.*Candidate bindings: .*"name".*tables: spans/);
  });

  it('prints a table with the row count', async () => {
    const d = mixedRun();
    const c = capture();
    assert.equal(await sql({ paths: [d.dir], query: "SELECT name, count(*) AS n FROM spans WHERE name LIKE 'gym.%' GROUP BY name ORDER BY name" }, c), 0, c.err);
    assert.equal(
      c.out,
      [
        'name                 n',
        '-------------------  -',
        'gym.job              1',
        'gym.model.responses  4',
        'gym.rollout          4',
        'gym.sandbox.exec     1',
        'gym.verify           4',
        '(5 rows)',
        '',
      ].join('\n'),
    );
  });
});

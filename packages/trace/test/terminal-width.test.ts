// show, why and stats fit an 80-column terminal: every line, names elided with distinct stems.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { show } from '../src/commands/show.js';
import { why } from '../src/commands/why.js';
import { stats } from '../src/commands/stats.js';
import { elide, outputWidth, textTable, useColor, wrapFields, wrapProse } from '../src/render/format.js';
import { capture } from './support/capture.js';
import { AGENT, defaultPresetSpans, RESOURCES, rolloutSpans, writeRunLogs } from './support/fixtures.js';

// the example environment's real names: an agent named after its resources server
const LONG_AGENT = 'nemo-gym/example_single_tool_call_simple_agent';
const LONG_RESOURCES = 'nemo-gym/example_single_tool_call';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
let dir: string;
// a default-preset run: one gym.job trace holding every rollout, its title naming every service
let jobDir: string;
let jobTraceId: string;
before(() => {
  const rename = (service: string) => (service === AGENT ? LONG_AGENT : service === RESOURCES ? LONG_RESOURCES : service);
  const spans = ['0-0', '1-0']
    .flatMap((id, i) => rolloutSpans({ rolloutId: id, atMs: i * 2000 }))
    .map((s) => ({ ...s, service: rename(s.service), name: s.name === 'gym.verify' ? 'example_single_tool_call.verify_with_a_long_name' : s.name }));
  const run = writeRunLogs(spans);
  cleanups.push(run.cleanup);
  dir = run.dir;
  const jobSpans = defaultPresetSpans(['0-0', '1-0', '2-0']).map((s) => ({ ...s, service: rename(s.service) }));
  const jobRun = writeRunLogs(jobSpans);
  cleanups.push(jobRun.cleanup);
  jobDir = jobRun.dir;
  jobTraceId = jobSpans.find((s) => s.name === 'gym.job')!.traceId;
});

function assertFits(text: string, width: number): void {
  for (const line of text.split('\n')) assert.ok(line.length <= width, `${line.length} > ${width}: ${line}`);
}

describe('80-column output', () => {
  const commands: [string, (width: number | undefined, c: ReturnType<typeof capture>) => Promise<number>][] = [
    ['show --rollout', (width, c) => show({ paths: [dir], rollout: '0-0', ...(width === undefined ? {} : { width }) }, c)],
    ['show --trace (a job trace)', (width, c) => show({ paths: [jobDir], trace: jobTraceId, ...(width === undefined ? {} : { width }) }, c)],
    ['show (the list)', (width, c) => show({ paths: [dir], ...(width === undefined ? {} : { width }) }, c)],
    ['why', (width, c) => why({ paths: [dir], id: '0-0', ...(width === undefined ? {} : { width }) }, c)],
    ['why --all', (width, c) => why({ paths: [dir], all: true, ...(width === undefined ? {} : { width }) }, c)],
    ['stats', (width, c) => stats({ paths: [dir], ...(width === undefined ? {} : { width }) }, c)],
  ];
  for (const [name, run] of commands) {
    it(`${name} fits 80 columns (and is wider without a width)`, async () => {
      const narrow = capture();
      assert.equal(await run(80, narrow), 0, narrow.err);
      assertFits(narrow.out, 80);
      const wide = capture();
      assert.equal(await run(undefined, wide), 0, wide.err);
      assert.ok(
        wide.out.split('\n').some((l) => l.length > 80),
        'the content is wider than 80 columns',
      );
    });
  }

  it('keeps the agent and the resources server apart when elided, and the trace ids whole', async () => {
    const tree = capture();
    await show({ paths: [dir], rollout: '0-0', width: 80 }, tree);
    const services = new Set(
      tree.out
        .split('\n')
        .filter((l) => /^[* ] /.test(l))
        .map(
          (l) =>
            l
              .slice(2)
              .trim()
              .split(/\s{2,}/)[1],
        ),
    );
    const agent = [...services].find((s) => s?.endsWith('agent'));
    const resources = [...services].find((s) => s?.endsWith('call'));
    assert.ok(agent !== undefined && resources !== undefined && agent !== resources, [...services].join(' | '));
    const list = capture();
    await show({ paths: [dir], width: 80 }, list);
    assert.match(list.out, /^0-0 +[0-9a-f]{32} /m);
  });

  it('stats keeps span names whole at 80 columns, leaving out percentile columns first', async () => {
    const c = capture();
    assert.equal(await stats({ paths: [dir], width: 80 }, c), 0, c.err);
    assertFits(c.out, 80);
    assert.match(c.out, /^gym\.model\.responses  /m);
    assert.match(c.out, /^POST \/v1\/responses  /m);
    assert.match(c.out, /^\(p90, p99, max.* left out to fit 80 columns/m);
  });

  it("why's call table names each call's route and callee at 80 columns", async () => {
    const c = capture();
    assert.equal(await why({ paths: [dir], id: '0-0', width: 80 }, c), 0, c.err);
    assertFits(c.out, 80);
    const calls = c.out.split('\n').filter((l) => l.startsWith('POST '));
    // the callee whole or cut in the middle, each side of the call readable
    assert.ok(
      calls.some((l) => /^POST \/v\S+ +policy_model +\d/.test(l)),
      calls.join('\n'),
    );
    assert.ok(
      calls.some((l) => /^POST \/verify +example\S*_call +\d/.test(l)),
      calls.join('\n'),
    );
  });

  it('elides in the middle', () => {
    assert.equal(elide('example_single_tool_call_simple_agent', 14), 'example…_agent');
    assert.equal(elide('example_single_tool_call', 14), 'example…l_call');
    assert.equal(elide('short', 14), 'short');
  });

  it("wraps prose at a space, keeping the line's indentation and dropping the spaces where it breaks", () => {
    assert.equal(wrapProse('plain words that are longer than twenty', 20), 'plain words that are\n  longer than twenty');
    assert.equal(wrapProse('    dataset: example of agent: a/long/path.jsonl', 30), '    dataset: example of agent:\n      a/long/path.jsonl');
    assert.equal(wrapProse('name  [domain]  a description', 15), 'name  [domain]\n  a description');
    assert.equal(wrapProse('short', undefined), 'short');
  });

  it('wraps a header between its fields, and a field too wide for a line as prose', () => {
    const header = 'trace 0123456789abcdef  34 spans  agent_one, agent_two, model  gym.job of 3 rollouts';
    assert.equal(wrapFields(header, undefined), header);
    assert.equal(wrapFields(header, 100), header);
    assert.equal(wrapFields(header, 40), 'trace 0123456789abcdef  34 spans\n  agent_one, agent_two, model\n  gym.job of 3 rollouts');
    assert.equal(wrapFields(header, 26), 'trace 0123456789abcdef\n  34 spans\n  agent_one, agent_two,\n    model\n  gym.job of 3 rollouts');
  });

  it('leaves out droppable columns only when eliding is not enough, and says so', () => {
    const rows = [['a-rather-long-name-here', '1', '2', '3']];
    const fits = textTable(['name', 'x', 'y', 'z'], rows, ['l', 'r', 'r', 'r'], { maxWidth: 20, droppable: [2] });
    assert.doesNotMatch(fits, /left out/);
    assertFits(fits, 20);
    const dropped = textTable(['name', 'xxxxxxxx', 'yyyyyyyy', 'zzzzzzzz'], rows, ['l', 'r', 'r', 'r'], { maxWidth: 30, droppable: [2] });
    assert.match(dropped, /^\(yyyyyyyy left out to fit 30 columns; --json has every column\)$/m);
    assert.doesNotMatch(dropped.split('\n')[0]!, /yyyy/);
  });
});

describe('terminal settings', () => {
  it('takes the width of the terminal, else COLUMNS, never under 80, else none', () => {
    assert.equal(outputWidth({ isTTY: true, columns: 132 }, {}), 132);
    assert.equal(outputWidth({ isTTY: true, columns: 40 }, {}), 80);
    assert.equal(outputWidth({ isTTY: false }, { COLUMNS: '100' }), 100);
    assert.equal(outputWidth({ isTTY: false }, {}), undefined);
  });

  it('colours only a terminal, and not when NO_COLOR is set', () => {
    assert.equal(useColor({ isTTY: true }, {}), true);
    assert.equal(useColor({ isTTY: true }, { NO_COLOR: '1' }), false);
    assert.equal(useColor({ isTTY: false }, {}), false);
  });

  it('lays out a table of hundreds of thousands of rows (stats by a rollout id attribute)', () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => [`${i}-0`, String(i % 7)]);
    const lines = textTable(['rollout', 'n'], rows, ['l', 'r']).split('\n');
    assert.equal(lines[0], 'rollout   n');
    assert.ok(lines.includes('299999-0  0'));
  });
});

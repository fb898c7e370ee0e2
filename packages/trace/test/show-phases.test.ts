// `show` draws a CLIENT bar in its phases with a legend, tells new from reused connections, and
// marks the rollouts that paid connection set-up (cold start).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { show } from '../src/commands/show.js';
import { capture } from './support/capture.js';
import { rolloutSpans, writeRunLogs } from './support/fixtures.js';
import { writeSaturatedRun } from './support/saturated-run.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));
let dir: string;
before(() => {
  // the first rollout opens the agent → model connection (40 ms); the others reuse it
  const d = writeSaturatedRun({ rollouts: 3, spacingMs: 500, shape: (i) => ({ model: { serverMs: 100, queuedMs: 200, connectMs: i === 0 ? 40 : 0, transitMs: 60, returnMs: 30 } }) });
  cleanups.push(d.cleanup);
  dir = d.dir;
});

describe('show with client phases', () => {
  it('draws the model call in its phases, in proportion, with a legend', async () => {
    const c = capture();
    assert.equal(await show({ paths: [dir], rollout: '0' }, c), 0, c.err);
    const row = c.out.split('\n').find((l) => /HTTP POST +simple_agent +430ms/.test(l))!;
    const bar = /\|(.{40})\|/.exec(row)![1]!;
    // 430 ms of a 438 ms view: queue 200, connect 40, transit 60, callee 100, return 30 (≈ 0.0913 cells/ms)
    const count = (ch: string) => [...bar].filter((x) => x === ch).length;
    assert.ok(Math.abs(count('░') - 18) <= 1, bar);
    assert.ok(Math.abs(count('▒') - 4) <= 1, bar);
    assert.ok(Math.abs(count('>') - 5) <= 1, bar);
    assert.ok(Math.abs(count('█') - 9) <= 1, bar);
    assert.ok(Math.abs(count('<') - 3) <= 1, bar);
    assert.match(bar, /^░+▒+>+█+<+$/);
    assert.match(row, /\| new connection \(connect 40ms\)$/);
    assert.match(c.out, /^CLIENT bars: ░ caller queue, ▒ connect, > transit \+ callee queue, █ callee, < return, x retries$/m);
    assert.match(c.out, /^\* HTTP POST +collector +\d+ms \|█+\| reused connection$/m, "the tree starts at the collector's call");
    assert.match(c.out, /^\* └─ POST \/run +simple_agent +\d+ms \|█+\|$/m, "/run is the agent's own route, not a tool");
  });

  it('says the later rollouts reused the connection, and marks the cold one in the list', async () => {
    const c = capture();
    await show({ paths: [dir], rollout: '2' }, c);
    assert.match(c.out, /HTTP POST +simple_agent +390ms \|.*\| reused connection$/m);
    const list = capture();
    await show({ paths: [dir] }, list);
    assert.match(list.out, /^0 +[0-9a-f]{32} +\d+ms +1 +ok +11 +1 new \(40ms\)$/m);
    assert.match(list.out, /^1 +[0-9a-f]{32} +\d+ms +1 +ok +11 +reused$/m);
    assert.match(list.out, /^1 rollout opened new connections \(cold start/m);
  });

  it('keeps plain bars and no legend for spans without phases', async () => {
    const c = capture();
    const d = writeRunLogs(rolloutSpans({ rolloutId: 'old' }));
    cleanups.push(d.cleanup);
    await show({ paths: [d.dir], rollout: 'old' }, c);
    assert.match(c.out, /^\* ├─ HTTP POST +simple_agent +600ms \| *█+ *\|$/m);
    assert.doesNotMatch(c.out, /CLIENT bars:|connection/);
  });
});

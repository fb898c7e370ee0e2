import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assembleTraces, byStart } from '../src/assemble/assemble-traces.js';
import { attributeRollout } from '../src/analyze/attribution.js';
import { AttributionSums } from '../src/analyze/attribution-sums.js';
import { computeStats } from '../src/analyze/stats.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import { lookupId } from '../src/assemble/find.js';
import { buildSpanTree } from '../src/analyze/span-tree.js';
import { readSpans } from '../src/read/read-spans.js';
import { TraceUserError } from '../src/errors.js';
import { bare, defaultPresetSpans, rolloutSpans, toRecords, writeRunLogs } from './support/fixtures.js';

const cleanups: Array<() => void> = [];
after(() => cleanups.forEach((c) => c()));

describe('assembleTraces', () => {
  it('links spans from three service files into one tree with the documented picture shape', async () => {
    const d = writeRunLogs(rolloutSpans({ rolloutId: '0-0' }));
    cleanups.push(d.cleanup);
    const { spans } = await readSpans([d.dir]);
    const set = assembleTraces(spans);
    assert.equal(set.traces.size, 1);
    const trace = [...set.traces.values()][0]!;
    assert.equal(trace.roots.length, 1);
    assert.equal(trace.orphans.length, 0);
    assert.deepEqual(trace.services, ['nemo-gym/policy_model', 'nemo-gym/simple_agent', 'nemo-gym/weather']);
    const tree = buildSpanTree([findRollouts(set)[0]!.node]);
    assert.deepEqual(
      tree.rows.map((r) => `${'  '.repeat(r.depth)}${r.node.span.name} ${r.durationMs}`),
      [
        'gym.rollout 998',
        '  HTTP POST 600',
        '    POST /v1/responses 590',
        '      gym.model.responses 586',
        '  HTTP POST 100',
        '    POST /get_weather 85',
        '  HTTP POST 270',
        '    POST /verify 255',
        '      gym.verify 251',
      ],
    );
    assert.deepEqual(tree.rows.map((r) => r.offsetMs).slice(0, 3), [0, 4, 9]);
    assert.deepEqual(tree.rows.map((r) => r.selfMs).slice(0, 4), [28, 10, 4, 586]);
    assert.equal(tree.wallMs, 998);
  });

  it('keeps orphans as roots and counts them', () => {
    const set = assembleTraces(toRecords([bare('root', '0000000000000001', null, 0, 10), bare('lost', '0000000000000002', '00000000000000ff', 2, 5)]));
    const t = [...set.traces.values()][0]!;
    assert.equal(set.orphanCount, 1);
    assert.deepEqual(
      t.roots.map((r) => [r.span.name, r.orphan]),
      [
        ['root', false],
        ['lost', true],
      ],
    );
  });

  it('de-duplicates a span read twice and counts it', () => {
    const spans = rolloutSpans({ rolloutId: 'dup' });
    const set = assembleTraces(toRecords([...spans, spans[3]!, spans[4]!]));
    assert.equal(set.spanCount, 10);
    assert.equal(set.duplicateCount, 2);
    assert.equal(set.duplicates[0]!.spanId, spans[3]!.spanId);
    const t = [...set.traces.values()][0]!;
    assert.equal(t.nodes.get(spans[3]!.spanId)!.children.length, 1);
  });

  it('breaks parent cycles instead of looping', () => {
    const set = assembleTraces(toRecords([bare('a', '0000000000000001', '0000000000000002', 0, 10), bare('b', '0000000000000002', '0000000000000001', 1, 5)]));
    const t = [...set.traces.values()][0]!;
    assert.equal(t.roots.length, 1);
    assert.equal(buildSpanTree(t.roots).rows.length, 2);
  });
});

describe('assembleTraces: order and the shared empty list of children', () => {
  it('lists children and roots in start order whether the spans came in order or not, and nothing adds to a leaf', () => {
    const spans = toRecords([...defaultPresetSpans(['a', 'b', 'c']), ...rolloutSpans({ rolloutId: 'r' }), bare('x', '00000000000000f1', '00000000000000ff', 5, 6)]);
    const ordered = [...spans].sort((x, y) => (x.startNs < y.startNs ? -1 : x.startNs > y.startNs ? 1 : x.spanId < y.spanId ? -1 : 1));
    const shape = (input: typeof spans) => {
      const set = assembleTraces(input);
      const out: Record<string, string[]> = {};
      for (const t of set.traces.values()) {
        out[`roots of ${t.traceId}`] = t.roots.map((n) => n.span.spanId);
        for (const n of t.nodes.values()) out[n.span.spanId] = n.children.map((c) => c.span.spanId);
      }
      return { set, out };
    };
    const inOrder = shape(ordered);
    const found = (set: ReturnType<typeof assembleTraces>) => findRollouts(set).map((r) => [r.rolloutId, r.node.span.spanId, r.verify?.span.name ?? null, r.reward]);
    for (const input of [spans, [...ordered].reverse()]) {
      const other = shape(input);
      assert.deepEqual(other.out, inOrder.out);
      // rollouts in start order, their verification found when asked for
      assert.deepEqual(found(other.set), found(inOrder.set));
    }
    assert.deepEqual(
      found(inOrder.set).map(([id, , verify, reward]) => [id, verify, reward]),
      [
        ['a', 'gym.verify', 1],
        ['r', 'gym.verify', 1],
        ['b', 'gym.verify', 1],
        ['c', 'gym.verify', 1],
      ],
    );
    // the order is the start order, ties by span id
    for (const t of inOrder.set.traces.values())
      for (const list of [t.roots, ...[...t.nodes.values()].map((n) => n.children)]) for (let i = 1; i < list.length; i++) assert.ok(byStart(list[i - 1]!, list[i]!) < 0, list[i]!.span.spanId);
    // analyses walk every tree; leaves share one list, which must stay empty
    const rollouts = findRollouts(inOrder.set);
    computeStats(inOrder.set, rollouts);
    const sums = new AttributionSums();
    for (const r of rollouts) {
      attributeRollout(r);
      sums.addRollout(r);
    }
    const leaves = [...inOrder.set.traces.values()].flatMap((t) => [...t.nodes.values()]).filter((n) => n.children.length === 0);
    assert.ok(leaves.length > 10);
    for (const leaf of leaves) assert.equal(leaf.children, leaves[0]!.children);
  });
});

describe('rollouts', () => {
  it('finds per_rollout rollouts, each its own trace, by rollout id and by trace id', () => {
    const a = rolloutSpans({ rolloutId: '0-0', reward: 1 });
    const b = rolloutSpans({ rolloutId: '1-0', atMs: 50, reward: 0 });
    const set = assembleTraces(toRecords([...a, ...b]));
    const rollouts = findRollouts(set);
    assert.deepEqual(
      rollouts.map((r) => [r.rolloutId, r.reward, r.sharedTrace]),
      [
        ['0-0', 1, false],
        ['1-0', 0, false],
      ],
    );
    const byId = lookupId(set, rollouts, '1-0');
    assert.equal(byId.type === 'rollout' && byId.rollout.traceId, b[0]!.traceId);
    const byTrace = lookupId(set, rollouts, a[0]!.traceId);
    assert.equal(byTrace.type === 'rollout' && byTrace.rollout.rolloutId, '0-0');
  });

  it('finds default-preset rollouts sharing one gym.job trace', () => {
    const spans = defaultPresetSpans(['0-0', '1-0', '2-0']);
    const set = assembleTraces(toRecords(spans));
    assert.equal(set.traces.size, 1);
    const rollouts = findRollouts(set);
    assert.deepEqual(
      rollouts.map((r) => r.rolloutId),
      ['0-0', '1-0', '2-0'],
    );
    assert.ok(rollouts.every((r) => r.sharedTrace));
    const t = [...set.traces.values()][0]!;
    assert.equal(t.roots[0]!.span.name, 'gym.job');
    const hit = lookupId(set, rollouts, spans[0]!.traceId);
    assert.equal(hit.type, 'trace');
    assert.equal(hit.type === 'trace' && hit.rollouts.length, 3);
  });

  it('lists the closest ids when a rollout is not found', () => {
    const set = assembleTraces(toRecords([...rolloutSpans({ rolloutId: '12-0' }), ...rolloutSpans({ rolloutId: '12-1' }), ...rolloutSpans({ rolloutId: '7-3' })]));
    assert.throws(
      () => lookupId(set, findRollouts(set), '12-2'),
      (err: unknown) => {
        assert.ok(err instanceof TraceUserError);
        assert.equal(err.code, 'GYM_TRACE_ROLLOUT_NOT_FOUND');
        assert.match(err.message, /Closest ids: 12-0, 12-1/);
        return true;
      },
    );
  });
});

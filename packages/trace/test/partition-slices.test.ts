// A partition is analysed in slices of whole traces (or, under a split root, whole subtrees):
// what a slice holds decides what an analysis of it can see, so these check the cuts themselves.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CompactSpans, CompactSpansWriter } from '../src/partition/compact-spans.js';
import { sliceSpans } from '../src/partition/partition-slices.js';
import { ResourceCache } from '../src/read/resource-cache.js';
import { bare, defaultPresetSpans, rolloutSpans, toRecords } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';

function compactOf(spans: FixtureSpan[]): CompactSpans {
  const writer = new CompactSpansWriter();
  toRecords(spans).forEach((s, i) => writer.add(s, 0, i + 1, 0));
  const file = CompactSpans.open(writer.bytes(), () => 'mem', new ResourceCache());
  assert.ok(file !== null);
  return file;
}

// Every span once, ascending within each slice; the slices as lists of span ids.
function idsOf(file: CompactSpans, slices: Int32Array[]): string[][] {
  const seen = slices.flatMap((s) => [...s]).sort((a, b) => a - b);
  assert.deepEqual(
    seen,
    Array.from({ length: file.spans }, (_, i) => i),
  );
  for (const s of slices) for (let k = 1; k < s.length; k++) assert.ok(s[k - 1]! < s[k]!);
  return slices.map((s) => [...s].map((i) => file.idOf(i)));
}

// Spans of each group are written children first, as exporters write them (a span is written when it ends).
function childrenFirst(spans: FixtureSpan[]): FixtureSpan[] {
  return [...spans].reverse();
}

describe('sliceSpans', () => {
  it('keeps each trace whole, fills slices with whole traces in the order they are met, and never splits one', () => {
    const traces = ['0', '1', '2', '3'].map((id) => childrenFirst(rolloutSpans({ rolloutId: id, atMs: Number(id) * 10 })));
    // interleaved: a span of each trace in turn
    const spans: FixtureSpan[] = [];
    for (let k = 0; k < Math.max(...traces.map((t) => t.length)); k++) for (const t of traces) if (t[k] !== undefined) spans.push(t[k]!);
    const file = compactOf(spans);
    const perTrace = traces[0]!.length;
    for (const maxSpans of [1, perTrace, perTrace + 1, 2 * perTrace, 1000]) {
      const slices = sliceSpans(file, new Set(), maxSpans);
      const ids = idsOf(file, slices);
      for (const slice of ids) {
        const whole = traces.filter((t) => t.some((s) => slice.includes(s.spanId)));
        // the traces it touches are in it entirely
        assert.equal(
          whole.reduce((n, t) => n + t.length, 0),
          slice.length,
          `maxSpans ${maxSpans}`,
        );
        // a slice takes a trace while it has fewer than maxSpans spans
        assert.ok(slice.length - perTrace < maxSpans, `a slice of ${slice.length} at maxSpans ${maxSpans}`);
      }
      assert.equal(slices.length, Math.ceil(traces.length / Math.ceil(maxSpans / perTrace)), `maxSpans ${maxSpans}`);
    }
  });

  it('cuts a trace split over partitions into its subtrees under the split root, whether the root is in the file or not', () => {
    const run = defaultPresetSpans(['0-0', '1-0', '2-0', '3-0']);
    const job = run[0]!;
    const below = (id: string): FixtureSpan[] => run.filter((s) => s.parentSpanId === id).flatMap((c) => [c, ...below(c.spanId)]);
    // one per rollout: the collector's call and everything under it
    const subtrees = below(job.spanId)
      .filter((s) => s.parentSpanId === job.spanId)
      .map((c) => [c, ...below(c.spanId)].map((s) => s.spanId).sort());
    assert.equal(subtrees.length, 4);
    for (const withRoot of [true, false]) {
      const spans = childrenFirst(withRoot ? run : run.slice(1));
      const file = compactOf(spans);
      const ids = idsOf(file, sliceSpans(file, new Set([job.spanId]), 1));
      assert.equal(ids.length, withRoot ? 5 : 4, `root in the file: ${withRoot}`);
      for (const subtree of subtrees) assert.ok(ids.some((slice) => JSON.stringify([...slice].sort()) === JSON.stringify(subtree)));
      if (withRoot) assert.ok(ids.some((slice) => slice.length === 1 && slice[0] === job.spanId));
      // not split: the whole trace is one unit
      assert.equal(sliceSpans(file, new Set(), 1).length, 1);
    }
  });

  it('keeps both copies of a subtree top exported twice, and its children, in one slice', () => {
    const run = defaultPresetSpans(['0-0', '1-0']);
    const job = run[0]!;
    const top = run.find((s) => s.parentSpanId === job.spanId)!;
    const spans = [...childrenFirst(run.slice(1)), { ...top, endMs: top.endMs + 1 }];
    const file = compactOf(spans);
    const ids = idsOf(file, sliceSpans(file, new Set([job.spanId]), 1));
    const slice = ids.find((s) => s.includes(top.spanId))!;
    assert.equal(slice.filter((id) => id === top.spanId).length, 2);
    assert.ok(spans.filter((s) => s.parentSpanId === top.spanId).every((c) => slice.includes(c.spanId)));
  });

  it('ends on a cycle of parents (hostile input), every span in a slice', () => {
    const spans = [
      bare('a', '000000000000000a', '000000000000000b', 0, 10),
      bare('b', '000000000000000b', '000000000000000a', 0, 10),
      bare('c', '000000000000000c', '000000000000000a', 0, 10),
      bare('d', '000000000000000d', '000000000000000d', 0, 10, { traceId: 'd'.repeat(32) }),
    ];
    const file = compactOf(spans);
    const ids = idsOf(file, sliceSpans(file, new Set(['000000000000000a']), 1));
    assert.ok(ids.length >= 2);
  });

  it('cuts the same file the same way every time', () => {
    const file = compactOf(childrenFirst(defaultPresetSpans(['0-0', '1-0', '2-0', '3-0', '4-0'])));
    const roots = new Set([file.idOf(file.spans - 1)]);
    assert.deepEqual(idsOf(file, sliceSpans(file, roots, 7)), idsOf(file, sliceSpans(file, roots, 7)));
  });
});

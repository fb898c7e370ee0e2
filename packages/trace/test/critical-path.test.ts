import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { criticalPath } from '../src/analyze/critical-path.js';
import { selfTimeNs } from '../src/analyze/self-time.js';
import { bare, BASE_NS, toRecords } from './support/fixtures.js';
import type { FixtureSpan } from './support/fixtures.js';

function rootOf(spans: FixtureSpan[]) {
  const t = [...assembleTraces(toRecords(spans)).traces.values()][0]!;
  return t.roots[0]!;
}

const ms = (ns: bigint) => Number(ns - BASE_NS) / 1e6;

describe('criticalPath', () => {
  it('follows the longer of two parallel children and gives gaps to the parent', () => {
    const root = rootOf([
      bare('root', '0000000000000001', null, 0, 100),
      bare('A-long', '0000000000000002', '0000000000000001', 10, 60),
      bare('B-short', '0000000000000003', '0000000000000001', 10, 40),
      bare('C', '0000000000000004', '0000000000000001', 70, 90),
      bare('C1', '0000000000000005', '0000000000000004', 72, 80),
    ]);
    const path = criticalPath(root);
    assert.deepEqual(
      path.segments.map((s) => `${s.node.span.name} ${ms(s.startNs)}-${ms(s.endNs)}`),
      ['root 0-10', 'A-long 10-60', 'root 60-70', 'C 70-72', 'C1 72-80', 'C 80-90', 'root 90-100'],
    );
    const names = [...path.spanIds].map((id) => (root.span.spanId === id ? 'root' : id));
    assert.ok(!names.includes('0000000000000003'), 'the shorter parallel child is not on the path');
    assert.ok(path.spanIds.has('0000000000000002'));
    assert.equal(path.wallMs, 100);
    const total = path.segments.reduce((n, s) => n + (s.endNs - s.startNs), 0n);
    assert.equal(total, 100_000_000n);
  });

  it('picks a later-starting child that ends last over an earlier, longer one', () => {
    const root = rootOf([
      bare('root', '0000000000000001', null, 0, 100),
      bare('early-long', '0000000000000002', '0000000000000001', 0, 70),
      bare('late', '0000000000000003', '0000000000000001', 50, 95),
    ]);
    const segs = criticalPath(root).segments.map((s) => `${s.node.span.name} ${ms(s.startNs)}-${ms(s.endNs)}`);
    assert.deepEqual(segs, ['early-long 0-50', 'late 50-95', 'root 95-100']);
  });

  it('clips a child that runs past its parent', () => {
    const root = rootOf([bare('root', '0000000000000001', null, 0, 100), bare('async', '0000000000000002', '0000000000000001', 50, 150)]);
    const segs = criticalPath(root).segments.map((s) => `${s.node.span.name} ${ms(s.startNs)}-${ms(s.endNs)}`);
    assert.deepEqual(segs, ['root 0-50', 'async 50-100']);
  });
});

describe('selfTimeNs', () => {
  it('subtracts the union of overlapping children once', () => {
    const root = rootOf([
      bare('root', '0000000000000001', null, 0, 100),
      bare('a', '0000000000000002', '0000000000000001', 10, 60),
      bare('b', '0000000000000003', '0000000000000001', 40, 80),
      bare('c', '0000000000000004', '0000000000000001', 90, 130),
    ]);
    assert.equal(selfTimeNs(root), 20_000_000n); // 0-10 and 80-90
  });
});

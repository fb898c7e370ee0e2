// Self time in numbers (what `stats` sums per span) against the bigint original, and the group
// sums staying exact past 2^53 ns.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { selfTimeNs, selfTimeNumber } from '../src/analyze/self-time.js';
import { computeStats, StatsAccumulator } from '../src/analyze/stats.js';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import { nsToMs } from '../src/span-record.js';
import type { SpanRecord } from '../src/span-record.js';
import { bare, BASE_NS, defaultPresetSpans, toRecords } from './support/fixtures.js';

// a span of `template`'s kind with exact times
function at(template: SpanRecord, spanId: string, parentSpanId: string | null, startNs: bigint, endNs: bigint, name = template.name): SpanRecord {
  return { ...template, spanId, parentSpanId, name, startNs, endNs, durationMs: Number(endNs - startNs) / 1e6 };
}

describe('self time in numbers', () => {
  it('equals the bigint self time on overlapping, nested, out-of-bounds and zero-length children', () => {
    const [t] = toRecords([bare('x', '0000000000000001', null, 0, 1)]);
    const spans = [
      at(t!, '0000000000000001', null, BASE_NS, BASE_NS + 1_000_000_007n, 'root'),
      at(t!, '0000000000000002', '0000000000000001', BASE_NS + 3n, BASE_NS + 500_000_001n),
      at(t!, '0000000000000003', '0000000000000001', BASE_NS + 200_000_000n, BASE_NS + 700_000_003n),
      at(t!, '0000000000000004', '0000000000000001', BASE_NS - 5n, BASE_NS + 2n),
      at(t!, '0000000000000005', '0000000000000001', BASE_NS + 900_000_000n, BASE_NS + 2_000_000_000n),
      at(t!, '0000000000000006', '0000000000000001', BASE_NS + 800_000_000n, BASE_NS + 800_000_000n),
      ...defaultPresetSpans(['0-0', '1-0']).flatMap((s) => toRecords([s])),
    ];
    const set = assembleTraces(spans);
    let checked = 0;
    for (const trace of set.traces.values())
      for (const node of trace.nodes.values()) {
        assert.equal(selfTimeNumber(node), Number(selfTimeNs(node)), node.span.name);
        checked++;
      }
    assert.ok(checked > 10);
  });

  it('gives up on a span longer than 2^53 ns, which stats then sums in bigints', () => {
    const [t] = toRecords([bare('x', '0000000000000001', null, 0, 1)]);
    const long = at(t!, '0000000000000001', null, 1n, 9_007_199_254_740_999_999n, 'long');
    const [node] = assembleTraces([long]).traces.values().next().value!.roots;
    assert.equal(selfTimeNumber(node!), null);
    const stats = computeStats(assembleTraces([long]), []);
    assert.equal(stats.groups[0]!.totalSelfMs, nsToMs(long.endNs - long.startNs));
  });

  it('keeps a group total exact past 2^53 ns', () => {
    const [t] = toRecords([bare('x', '0000000000000001', null, 0, 1)]);
    // three roots of 5e15 + 1, + 3 and + 5 ns: 1.5e16 + 9 in all, past what a double holds exactly
    const spans = [1n, 3n, 5n].map((odd, i) => at(t!, `000000000000000${i + 1}`, null, BASE_NS, BASE_NS + 5_000_000_000_000_000n + odd, 'long'));
    const set = assembleTraces(spans);
    const acc = new StatsAccumulator();
    acc.add(set, findRollouts(set));
    assert.equal(acc.state().groups[0]!.selfNs, 15_000_000_000_000_009n);
    assert.notEqual(BigInt(5_000_000_000_000_001 + 5_000_000_000_000_003 + 5_000_000_000_000_005), 15_000_000_000_000_009n, 'a double would not hold it');
    assert.equal(acc.finish().groups[0]!.totalSelfMs, nsToMs(15_000_000_000_000_009n));
  });
});

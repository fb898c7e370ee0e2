// The report's memory chart draws one line per process that has samples, also when a process's
// samples fall around a short run and not in it (a server exports its last gauges at shutdown,
// after the run's last span).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ProcessSaturation, Sample, SaturationData } from '../src/analyze/saturation.js';
import { buildRunView } from '../src/report/run-view.js';

const S = 1_000_000_000n;
const sample = (atS: number, bytes: number): Sample => ({ startNs: BigInt(atS) * S, endNs: BigInt(atS) * S, value: bytes });

function process(key: string, heapUsed: Sample[]): ProcessSaturation {
  return { key, service: key, pid: null, elu: [], delayP99: [], delayMax: [], gcSeconds: [], heapUsed };
}

describe('memory over time in the report', () => {
  it('draws every process with samples, those outside the run held at its edges', () => {
    const saturation: SaturationData = {
      processes: [
        process('orchestrator', [sample(10, 1), sample(12, 2), sample(14, 3)]),
        process('agent', [sample(30, 5)]),
        process('model', [sample(5, 7)]),
        process('resources', [sample(8, 9), sample(30, 11)]),
        process('no samples', []),
      ],
      memory: [],
      hostMemory: [],
      recorded: true,
    };
    // the run: 10 s to 15 s
    const view = buildRunView({ starts: new BigInt64Array([10n * S]), ends: new BigInt64Array([15n * S]) }, 10n * S, 15n * S, saturation, '');
    const byName = Object.fromEntries(view.memory.series.map((s) => [s.name, s.points]));
    assert.deepEqual(Object.keys(byName), ['orchestrator', 'agent', 'model', 'resources']);
    assert.deepEqual(byName['orchestrator'], [
      [0, 1],
      [2000, 2],
      [4000, 3],
    ]);
    // only after the run (its export at shutdown): drawn at the run's end
    assert.deepEqual(byName['agent'], [[5000, 5]]);
    // only before it
    assert.deepEqual(byName['model'], [[0, 7]]);
    // one on each side
    assert.deepEqual(byName['resources'], [
      [0, 9],
      [5000, 11],
    ]);
  });
});

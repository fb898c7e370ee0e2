import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const CLOCK = new URL('../src/clock.ts', import.meta.url).href;

/**
 * In a fresh process: the offset it anchors to, and one span time with the monotonic readings
 * taken just before and after it (so the check below holds however loaded the machine is).
 */
function probe(env: Record<string, string | undefined>): { offset: bigint; wall: bigint; monoBefore: bigint; monoAfter: bigint } {
  const code = `
    const { clockOffsetNs, hrTimeAt } = await import(${JSON.stringify(CLOCK)});
    const offset = clockOffsetNs();
    const monoBefore = process.hrtime.bigint();
    const [s, n] = hrTimeAt(performance.now());
    const monoAfter = process.hrtime.bigint();
    console.log(JSON.stringify({ offset: String(offset), wall: String(BigInt(s) * 1000000000n + BigInt(n)), monoBefore: String(monoBefore), monoAfter: String(monoAfter) }));
  `;
  const child = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '-e', code], { encoding: 'utf8', env: { ...process.env, ...env } });
  assert.equal(child.status, 0, child.stderr);
  const out = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, string>;
  return { offset: BigInt(out['offset']!), wall: BigInt(out['wall']!), monoBefore: BigInt(out['monoBefore']!), monoAfter: BigInt(out['monoAfter']!) };
}

describe('the span clock', () => {
  it('anchors to the offset a launcher hands down, so every process of a host maps one monotonic instant to one wall time', () => {
    const offset = 1_764_000_000_123_456_789n;
    for (const run of [probe({ NEMO_LENS_CLOCK_OFFSET_NS: String(offset) }), probe({ NEMO_LENS_CLOCK_OFFSET_NS: ` ${offset}\n` })]) {
      assert.equal(run.offset, offset);
      // the span's time is the monotonic clock read between the two readings, plus the offset (1 µs for rounding)
      assert.ok(run.wall >= run.monoBefore + offset - 1_000n && run.wall <= run.monoAfter + offset + 1_000n, `${run.wall - offset} not in [${run.monoBefore}, ${run.monoAfter}]`);
    }
  });

  it('measures the offset itself when none is handed down or the value is not a number', () => {
    for (const env of [{ NEMO_LENS_CLOCK_OFFSET_NS: undefined }, { NEMO_LENS_CLOCK_OFFSET_NS: 'soon' }]) {
      const run = probe(env);
      // a coarse check against the wall clock: Date.now() is read in this process, not the child
      const coarse = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();
      const diffMs = Number(run.offset - coarse) / 1e6;
      assert.ok(Math.abs(diffMs) < 50, `offset ${run.offset} is ${diffMs} ms from the wall clock's`);
      assert.ok(run.wall >= run.monoBefore + run.offset - 1_000n && run.wall <= run.monoAfter + run.offset + 1_000n);
    }
  });

  it('measures the same offset twice to within a few microseconds', () => {
    const [a, b] = [probe({ NEMO_LENS_CLOCK_OFFSET_NS: undefined }), probe({ NEMO_LENS_CLOCK_OFFSET_NS: undefined })];
    // a single reading of performance.timeOrigin is off by up to a millisecond; the step bracket is not
    assert.ok(Number(a.offset > b.offset ? a.offset - b.offset : b.offset - a.offset) < 200_000, `${a.offset} vs ${b.offset}`);
  });
});

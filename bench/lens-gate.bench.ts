// The cost of a disabled span-group gate and of disabled lens primitives, against plain calls.
// Run: npm run bench -- lens-gate   (see BENCHMARKS.md)
import { bench, do_not_optimize, group } from 'mitata';
import { isSpanGroupEnabled, setEnabledSpanGroups, SpanRegistry } from '@gym/lens';
import { managedSpan, spanGroup, startGroupSpan, traceFn } from '@gym/lens/nemo-lens';
import { trace } from '@opentelemetry/api';
import { countGcs } from './support/gc-count.js';
import { runAndReport } from './support/mitata-report.js';

SpanRegistry.register('bench', { groups: ['rollout', 'other'] });
const ROLLOUT = spanGroup('rollout');
// Written at run time so V8 cannot fold the field into a constant and measure nothing.
setEnabledSpanGroups(process.env.BENCH_NEVER_SET === '1' ? ['rollout'] : ['other']);

let sink = 0;
function work(): number {
  return ++sink;
}
function emptyCall(): void {}
const tracedWork = traceFn(ROLLOUT, 'gym.rollout')(work);
const noopTracer = trace.getTracer('bench');

// Two pairs: bare (V8 may delete an empty call entirely, so the baseline is the loop itself) and
// kept (both results pass through do_not_optimize, so neither can be deleted).
let emptyFn: () => void = emptyCall;
if (process.env.BENCH_NEVER_SET === '1') emptyFn = () => void work();

group('disabled gate site', () => {
  bench('empty function call', () => emptyCall());
  bench('if (GROUP.enabled) — disabled', () => {
    if (ROLLOUT.enabled) work();
  });
  bench('empty function call, result kept', () => do_not_optimize(emptyFn()));
  bench('GROUP.enabled, result kept', () => do_not_optimize(ROLLOUT.enabled));
  bench("isSpanGroupEnabled('rollout') — disabled", () => do_not_optimize(isSpanGroupEnabled('rollout')));
});

group('disabled primitives vs a bare call', () => {
  bench('bare function call', () => do_not_optimize(work()));
  bench('managedSpan — disabled', () => do_not_optimize(managedSpan(ROLLOUT, 'gym.rollout', work)));
  bench('traceFn wrapper — disabled', () => do_not_optimize(tracedWork()));
  bench('startGroupSpan().end() — disabled', () => startGroupSpan(ROLLOUT, 'HTTP POST').end());
  bench('OTel API startSpan().end() — no SDK', () => noopTracer.startSpan('x').end());
});

await runAndReport([
  { subject: 'if (GROUP.enabled) — disabled', baseline: 'empty function call' },
  { subject: 'GROUP.enabled, result kept', baseline: 'empty function call, result kept', budget: 2 },
  { subject: "isSpanGroupEnabled('rollout') — disabled", baseline: 'empty function call' },
  { subject: 'managedSpan — disabled', baseline: 'bare function call' },
  { subject: 'traceFn wrapper — disabled', baseline: 'bare function call' },
  { subject: 'startGroupSpan().end() — disabled', baseline: 'bare function call' },
  { subject: 'OTel API startSpan().end() — no SDK', baseline: 'bare function call' },
]);

console.log('\nAllocations (run with --expose-gc):');
await countGcs('empty function call', 10_000_000, emptyCall);
await countGcs('disabled gate site', 10_000_000, () => {
  if (ROLLOUT.enabled) work();
});
await countGcs('managedSpan — disabled', 10_000_000, () => managedSpan(ROLLOUT, 'gym.rollout', work));

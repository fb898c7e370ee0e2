// The cost of one enabled span, end to end: gate → span → batch processor → console JSON-lines
// exporter → a null sink, against a bare call and the OTel API with no SDK. Spans are made in
// bursts of 1024 with the event loop yielded between bursts, so the batch processor exports as
// it would in a server, and every span is accounted for (exported or counted as dropped).
// Run: npm run bench -- lens-span
import { Writable } from 'node:stream';
import { managedSpan, spanGroup, SpanRegistry } from '@gym/lens';
import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';

const BURST = 1024;
const SPANS = Math.ceil(Number(process.env.BENCH_SPANS ?? 200_000) / BURST) * BURST;
let bytes = 0;
let lines = 0;
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    done();
  },
});

SpanRegistry.register('bench', { groups: ['rollout'] });
const ROLLOUT = spanGroup('rollout');
let sink2 = 0;
const work = () => ++sink2;

async function timePerCall(label: string, call: () => void): Promise<number> {
  const started = process.hrtime.bigint();
  for (let done = 0; done < SPANS; done += BURST) {
    for (let i = 0; i < BURST; i++) call();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const ns = Number(process.hrtime.bigint() - started) / SPANS;
  console.log(`| ${label} | ${ns.toFixed(0)} ns |`);
  return ns;
}

console.log(`${SPANS.toLocaleString('en')} calls in bursts of ${BURST}, node ${process.version}\n`);
console.log('| what | time per call |');
console.log('| --- | --- |');
const bare = await timePerCall('bare function call', work);
const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'console', spanGroups: 'rollout', metricsEnabled: false }), { output: sink, allowReinit: true });
const attrs = { 'nemo.gym.server.name': 'agent', 'nemo.gym.rollout.id': '12-3' };
const span = await timePerCall('managedSpan, enabled, 2 attributes, exported to console (null sink)', () => managedSpan(ROLLOUT, 'gym.rollout', work, attrs));
await handle.shutdown();
const dropped = handle.droppedSpans();
console.log(`\nexported ${lines.toLocaleString('en')} lines (${(bytes / lines).toFixed(0)} B each), dropped ${dropped}; enabled span ≈ ${((span - bare) / 1000).toFixed(2)} µs over a bare call`);
if (lines + dropped !== SPANS) throw new Error(`accounting: ${lines} exported + ${dropped} dropped != ${SPANS}`);

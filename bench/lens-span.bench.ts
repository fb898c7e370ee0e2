// The cost of one enabled span, end to end: gate → span → batch processor → console JSON-lines
// exporter, against a bare call. Two sinks, one after the other: a null Writable (which gets each
// export as text) and a file stream on the null device (which gets it encoded into reused buffers,
// as a server's console file does). Spans are made in bursts of 1024 with the event loop yielded
// between bursts — and, for the file, its backlog written — so the batch processor exports as it
// would in a server and nothing is dropped; every span is accounted for (exported, or counted lost).
// Reported per span: wall time, and CPU time of the whole process (the file's writes run in libuv's pool).
// Run: npm run bench -- lens-span
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { devNull } from 'node:os';
import { Writable } from 'node:stream';
import { SpanRegistry } from '@gym/lens';
import { managedSpan, spanGroup } from '@gym/lens/nemo-lens';
import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';

const BURST = 1024;
const SPANS = Math.ceil(Number(process.env.BENCH_SPANS ?? 200_000) / BURST) * BURST;
let bytes = 0;
let lines = 0;
// span lines only: the stream also gets the process's resource record, once
const SPAN_LINE = Buffer.from('{"type":"span"');
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    bytes += chunk.length;
    for (let i = chunk.indexOf(SPAN_LINE); i !== -1; i = chunk.indexOf(SPAN_LINE, i + 1)) lines++;
    done();
  },
});

SpanRegistry.register('bench', { groups: ['rollout'] });
const ROLLOUT = spanGroup('rollout');
let sink2 = 0;
const work = () => ++sink2;

interface PerCall {
  wallNs: number;
  cpuNs: number;
}

/** Time per call of `call`, in bursts; `settle` runs after each burst (the file's backlog). */
async function timePerCall(label: string, call: () => void, settle: () => Promise<void> = async () => undefined): Promise<PerCall> {
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let done = 0; done < SPANS; done += BURST) {
    for (let i = 0; i < BURST; i++) call();
    await new Promise((resolve) => setImmediate(resolve));
    await settle();
  }
  const wallNs = Number(process.hrtime.bigint() - started) / SPANS;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuNs = ((cpu.user + cpu.system) * 1000) / SPANS;
  console.log(`| ${label} | ${wallNs.toFixed(0)} ns | ${cpuNs.toFixed(0)} ns |`);
  return { wallNs, cpuNs };
}

const config = new NemoLensConfig({ enabled: true, exporter: 'console', spanGroups: 'rollout', metricsEnabled: false });
const attrs = { 'nemo.gym.server.name': 'agent', 'nemo.gym.rollout.id': '12-3' };
const spanOnce = () => managedSpan(ROLLOUT, 'gym.rollout', work, attrs);

console.log(`${SPANS.toLocaleString('en')} calls in bursts of ${BURST}, node ${process.version}\n`);
console.log('| what | wall per call | CPU per call |');
console.log('| --- | --- | --- |');
const bare = await timePerCall('bare function call', work);

const handle = await setupTelemetry(config, { output: sink, allowReinit: true });
const toSink = await timePerCall('managedSpan, enabled, 2 attributes, exported to console (null Writable: text)', spanOnce);
await handle.shutdown();
const sinkLost = handle.losses().spans.lost;

const file = createWriteStream(devNull);
const fileHandle = await setupTelemetry(config, { output: file, allowReinit: true });
const drained = async () => {
  while (file.writableNeedDrain) await once(file, 'drain');
};
const toFile = await timePerCall('managedSpan, enabled, 2 attributes, exported to console (file stream: reused buffers)', spanOnce, drained);
await fileHandle.shutdown();
file.end();
await once(file, 'finish');
const fileLost = fileHandle.losses().spans.lost;

const over = (t: PerCall) => `${((t.wallNs - bare.wallNs) / 1000).toFixed(2)} µs wall, ${((t.cpuNs - bare.cpuNs) / 1000).toFixed(2)} µs CPU over a bare call`;
console.log(`\nnull Writable: ${lines.toLocaleString('en')} lines (${(bytes / lines).toFixed(0)} B each), ${sinkLost} lost; enabled span ≈ ${over(toSink)}`);
console.log(`file stream: ${(file.bytesWritten / SPANS).toFixed(0)} B per span written, ${fileLost} lost; enabled span ≈ ${over(toFile)}`);
console.log(`CPU per span, file stream ÷ null Writable: ${((toFile.cpuNs - bare.cpuNs) / (toSink.cpuNs - bare.cpuNs)).toFixed(3)}`);
if (lines + sinkLost !== SPANS) throw new Error(`accounting: ${lines} exported + ${sinkLost} lost != ${SPANS}`);
if (fileLost !== 0 || Math.abs(file.bytesWritten / SPANS - bytes / lines) > 1) throw new Error(`accounting: the file got ${file.bytesWritten} bytes (the Writable ${bytes}), ${fileLost} lost`);

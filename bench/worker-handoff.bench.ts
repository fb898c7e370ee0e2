// Whether encoding span records on a worker thread could take work off a server's main thread:
// the main thread's CPU per span, side by side in one process, for
//   encode here — what gym does: the console line built as the span ends and written into a reused
//                 buffer (the file write itself already runs in libuv's pool, off the main thread),
//                 here with the floor's hand-written encoder of the same record (support/floor-record.ts);
//   hand over   — what a worker needs instead: the span's fields captured into a plain object and
//                 posted in batches of 512 to a worker, which builds the same lines there.
// (A SharedArrayBuffer ring would still need the attributes serialised on the main thread, which is
// most of the line: it is the first row with another destination.) Rounds alternate; CPU is the
// main thread's, from /proc.
// Run: npm run bench -- worker-handoff   (BENCH_SPANS per round, BENCH_ROUNDS)
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { floorIdentityTail, floorSpanLine } from './support/floor-record.js';
import { mainThreadCpuSeconds } from './support/proc-cpu.js';

const SPANS = Number(process.env.BENCH_SPANS ?? 400_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BATCH = 512;

const tail = floorIdentityTail({ serviceName: 'nemo-gym/example_single_tool_call_simple_agent', pid: process.pid });
/** A SERVER span of the agent's `/run`, as it ends (fresh attributes per span, as a server's). */
function span(i: number) {
  const hex = i.toString(16).padStart(16, '0');
  return {
    traceId: `543c8adacbf1d9c0${hex}`,
    spanId: hex,
    parentSpanId: undefined,
    name: 'POST /run',
    kind: 'SERVER' as const,
    startMs: 1796180819797.216,
    endMs: 1796180820041.891,
    error: undefined,
    attributes: {
      'http.request.method': 'POST',
      'url.path': '/run',
      'nemo.gym.server.name': 'example_single_tool_call_simple_agent',
      'http.route': '/run',
      'nemo.gym.rollout.id': `r-${hex.slice(4)}`,
      'http.response.status_code': 200,
    },
  };
}
type Span = ReturnType<typeof span>;

const out = Buffer.alloc(1 << 20);
function encodeHere(spans: Span[]): void {
  let at = 0;
  for (const s of spans) {
    const line = floorSpanLine({ ...s, attributes: JSON.stringify(s.attributes) }, tail);
    if (at + line.length * 3 + 1 > out.length) at = 0;
    at += out.write(line, at);
    out[at++] = 10;
  }
}

// the worker builds the same lines from the posted fields
const worker = new Worker(
  `const { parentPort } = require('node:worker_threads');
   let lines = 0;
   parentPort.on('message', (batch) => {
     if (batch === 'count') return parentPort.postMessage(lines);
     for (const f of batch) { JSON.stringify(f.attributes); lines++; }
   });`,
  { eval: true },
);
function handOver(spans: Span[]): void {
  let batch: object[] = [];
  for (const s of spans) {
    batch.push({ traceId: s.traceId, spanId: s.spanId, parent: s.parentSpanId, name: s.name, kind: s.kind, start: s.startMs, end: s.endMs, error: s.error, attributes: s.attributes });
    if (batch.length === BATCH) {
      worker.postMessage(batch);
      batch = [];
    }
  }
  if (batch.length > 0) worker.postMessage(batch);
}

async function measure(run: (spans: Span[]) => void): Promise<number> {
  // spans made outside the measured part in chunks, so both sides pay the same for having them
  let cpu = 0;
  for (let done = 0; done < SPANS; done += 16_384) {
    const spans = Array.from({ length: Math.min(16_384, SPANS - done) }, (_, i) => span(done + i));
    const before = mainThreadCpuSeconds(process.pid);
    run(spans);
    cpu += mainThreadCpuSeconds(process.pid) - before;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return (cpu / SPANS) * 1e6;
}

const here: number[] = [];
const over: number[] = [];
encodeHere([span(0), span(1)]);
for (let round = 0; round < ROUNDS; round++) {
  here.push(await measure(encodeHere));
  over.push(await measure(handOver));
}
worker.postMessage('count');
await new Promise((resolve) => worker.once('message', resolve));
await worker.terminate();
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(', ');
console.log(`\nmain-thread CPU µs per span, ${SPANS} spans a round, ${ROUNDS} rounds, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}\n`);
console.log('| | µs per span (rounds) |\n| --- | --- |');
console.log(`| encode here (gym today) | ${fmt(here)} |`);
console.log(`| hand over to a worker (postMessage, batches of ${BATCH}) | ${fmt(over)} |`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`\nhand over ÷ encode here (median): ${(median(over) / median(here)).toFixed(2)}`);

// Writes a generated default-preset run for `trace-read`: one gym.job trace; per rollout the
// collector's call, the agent's /run, gym.rollout, a model call and its server spans and a
// gym.verify, with a log line between them; one console file per process.
// Run alone: node --conditions=source --import tsx bench/support/generate-run.ts <dir> <spans>
import { createWriteStream, mkdirSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { consoleSpanLine } from './console-span-line.js';

/** Spans per rollout. */
export const PER_ROLLOUT = 7;
const BASE = 1_767_225_600_000_000_000n;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const TRACE = hex(1, 32);
const JOB = hex(1, 16);

function line(spanId: string, parent: string | null, name: string, kind: string, service: string, start: bigint, end: bigint, attributes: object): string {
  return consoleSpanLine({ traceId: TRACE, spanId, parent, name, kind, service, runId: 'bench', start, end, attributes });
}

// One rollout every 50 µs, 1 s long: about 20,000 in flight, as at high concurrency. Each span is
// written to its process's file when it ends, as exporters write them, so the spans of thousands
// of rollouts interleave in every file.
const SPAN_KINDS: Array<{ file: string; endMs: number; line: (i: number) => string }> = [
  { file: 'collector.log', endMs: 1000, line: (i) => span(i, 0, JOB, 'HTTP POST', 'CLIENT', 'nemo-gym/collector', 0, 1000, { 'url.full': 'http://127.0.0.1:9000/run' }) },
  { file: 'agent.log', endMs: 999, line: (i) => span(i, 1, 0, 'POST /run', 'SERVER', 'nemo-gym/simple_agent', 1, 999, { 'http.route': '/run' }) },
  { file: 'agent.log', endMs: 998, line: (i) => span(i, 2, 1, 'gym.rollout', 'INTERNAL', 'nemo-gym/simple_agent', 2, 998, {}) },
  { file: 'agent.log', endMs: 605, line: (i) => span(i, 3, 2, 'HTTP POST', 'CLIENT', 'nemo-gym/simple_agent', 5, 605, { 'url.full': 'http://127.0.0.1:9001/v1/responses' }) },
  {
    file: 'model.log',
    endMs: 600,
    line: (i) =>
      span(i, 4, 3, 'POST /v1/responses', 'SERVER', 'nemo-gym/policy_model', 10, 600, { 'http.route': '/v1/responses' }) +
      `\n{"level":30,"time":1767225600000,"pid":1,"msg":"request completed","reqId":"req-${i}","responseTime":0.9}`,
  },
  { file: 'model.log', endMs: 598, line: (i) => span(i, 5, 4, 'gym.model.responses', 'INTERNAL', 'nemo-gym/policy_model', 12, 598, { 'gen_ai.request.model': 'bench' }) },
  { file: 'agent.log', endMs: 990, line: (i) => span(i, 6, 2, 'gym.verify', 'INTERNAL', 'nemo-gym/simple_agent', 700, 990, { 'gym.verify.reward': 1 }) },
];
const EVERY_NS = 50_000n;

// span `j` of rollout `i`, under span `parent` of the same rollout (or the job's id)
function span(i: number, j: number, parent: number | string, name: string, kind: string, service: string, startMs: number, endMs: number, attributes: object): string {
  const at = BASE + BigInt(i) * EVERY_NS;
  const id = (k: number) => hex(i * PER_ROLLOUT + k + 2, 16);
  const ms = (n: number) => at + BigInt(n) * 1_000_000n;
  return line(id(j), typeof parent === 'string' ? parent : id(parent), name, kind, service, ms(startMs), ms(endMs), { ...attributes, 'nemo.gym.rollout.id': `${i}-0` });
}

/** Writes every span of `rollouts` rollouts, in end-time order, into its process's file in `into`. */
export async function writeRun(into: string, rollouts: number): Promise<void> {
  const files = new Map(SPAN_KINDS.map((k) => [k.file, { stream: createWriteStream(join(into, k.file)), pending: [] as string[] }]));
  // the next rollout of each kind of span; a kind's spans end 50 µs apart, so merging the kinds by
  // their next end time gives every span in end order
  const next = SPAN_KINDS.map(() => 0);
  const endUs = (k: number) => next[k]! * 50 + SPAN_KINDS[k]!.endMs * 1000;
  for (;;) {
    let k = -1;
    for (let c = 0; c < SPAN_KINDS.length; c++) if (next[c]! < rollouts && (k === -1 || endUs(c) < endUs(k))) k = c;
    if (k === -1) break;
    const f = files.get(SPAN_KINDS[k]!.file)!;
    f.pending.push(SPAN_KINDS[k]!.line(next[k]!++));
    if (f.pending.length >= 4096 && !f.stream.write(f.pending.splice(0).join('\n') + '\n')) await once(f.stream, 'drain');
  }
  const collector = files.get('collector.log')!;
  collector.pending.push(line(JOB, null, 'gym.job', 'INTERNAL', 'nemo-gym/collector', BASE, BASE + BigInt(rollouts) * EVERY_NS + 1_000_000_000n, {}));
  for (const f of files.values()) {
    if (f.pending.length > 0) f.stream.write(f.pending.join('\n') + '\n');
    f.stream.end();
    await once(f.stream, 'finish');
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [into, spans] = process.argv.slice(2);
  if (into === undefined || !(Number(spans) > 0)) throw new Error('usage: generate-run.ts <dir> <spans>');
  mkdirSync(into, { recursive: true });
  await writeRun(into, Math.ceil((Number(spans) - 1) / PER_ROLLOUT));
}

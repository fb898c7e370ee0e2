// Writes a large default-preset run as console lines, fast enough for tests and benchmarks: one
// gym.job trace; per rollout the collector's call, the agent's /run, gym.rollout, a model call with
// its server spans and gym.verify; log lines between them. Durations spread over a long tail, and
// every FAIL_EVERY-th rollout fails in the model (its gym.rollout is ERROR too), so a report of it
// must cap its rows and still count every rollout.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { consoleSpanLine } from './console-span-line.js';

export const BIG_RUN_SPANS_PER_ROLLOUT = 7;
/** Every this-many-th rollout fails (rollout 0 included). */
export const FAIL_EVERY = 53;

const BASE = 1_767_225_600_000_000_000n;
const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const TRACE = hex(0xb16, 32);
const JOB = hex(1, 16);

function line(spanId: string, parent: string | null, name: string, kind: string, service: string, start: bigint, end: bigint, attributes: object, error = false): string {
  return consoleSpanLine({ traceId: TRACE, spanId, parent, name, kind, service, runId: 'big', start, end, attributes, ...(error ? { error: 'model overloaded' } : {}) });
}

// A deterministic spread in [0, 1) per rollout (no Math.random: the same run every time).
function spread(i: number): number {
  let x = (i + 1) * 2654435761;
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 2246822519) >>> 0;
  return ((x ^ (x >>> 13)) >>> 0) / 4294967296;
}

/** The model time of rollout `i` in µs: mostly 0.2–1.2 s, one in 40 up to 6 s. */
function modelUs(i: number): number {
  const u = spread(i);
  return Math.round(i % 40 === 7 ? 2_000_000 + u * 4_000_000 : 200_000 + u * 1_000_000);
}

function rolloutLines(i: number): string[] {
  // one rollout every 200 µs: thousands in flight, as at high concurrency
  const at = BASE + BigInt(i) * 200_000n;
  const id = (j: number) => hex(i * BIG_RUN_SPANS_PER_ROLLOUT + j + 2, 16);
  const rid = { 'nemo.gym.rollout.id': `${i}-0` };
  const model = BigInt(modelUs(i)) * 1000n;
  const us = (n: bigint) => at + n * 1000n;
  const failed = i % FAIL_EVERY === 0;
  const modelEnd = us(3000n) + model;
  const verifyEnd = modelEnd + 40_000_000n;
  const end = failed ? modelEnd + 2_000_000n : verifyEnd + 3_000_000n;
  const lines = [
    line(id(0), JOB, 'HTTP POST', 'CLIENT', 'nemo-gym/collector', at, end + 1_000_000n, { 'url.full': 'http://127.0.0.1:9000/run', 'http.response.status_code': 200, ...rid }),
    line(id(1), id(0), 'POST /run', 'SERVER', 'nemo-gym/simple_agent', us(300n), end + 500_000n, { 'http.route': '/run', 'http.response.status_code': 200, ...rid }),
    line(id(2), id(1), 'gym.rollout', 'INTERNAL', 'nemo-gym/simple_agent', us(500n), end, rid, failed),
    line(id(3), id(2), 'HTTP POST', 'CLIENT', 'nemo-gym/simple_agent', us(1000n), modelEnd + 1_000_000n, {
      'url.full': 'http://127.0.0.1:9001/v1/responses',
      'http.response.status_code': failed ? 500 : 200,
      ...rid,
    }),
    line(id(4), id(3), 'POST /v1/responses', 'SERVER', 'nemo-gym/policy_model', us(2000n), modelEnd + 500_000n, {
      'http.route': '/v1/responses',
      'http.response.status_code': failed ? 500 : 200,
      ...rid,
    }),
    line(id(5), id(4), 'gym.model.responses', 'INTERNAL', 'nemo-gym/policy_model', us(3000n), modelEnd, { 'gen_ai.request.model': 'big', ...rid }, failed),
    `{"level":30,"time":1767225600000,"pid":1,"msg":"request completed","reqId":"req-${i}","responseTime":0.9}`,
  ];
  if (!failed) lines.push(line(id(6), id(2), 'gym.verify', 'INTERNAL', 'nemo-gym/simple_agent', modelEnd + 2_000_000n, verifyEnd, { 'gym.verify.reward': i % 3 === 0 ? 0 : 1, ...rid }));
  return lines;
}

/** Writes `rollouts` rollouts into `dir/run.log`; returns the file and the number of failed rollouts. */
export async function writeBigRun(dir: string, rollouts: number): Promise<{ file: string; failed: number }> {
  const file = join(dir, 'run.log');
  const out = createWriteStream(file);
  out.write(line(JOB, null, 'gym.job', 'INTERNAL', 'nemo-gym/collector', BASE, BASE + BigInt(rollouts) * 200_000n + 7_000_000_000n, {}) + '\n');
  let failed = 0;
  for (let i = 0; i < rollouts; i++) {
    if (i % FAIL_EVERY === 0) failed++;
    if (!out.write(rolloutLines(i).join('\n') + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return { file, failed };
}

// Writes a real-shaped default-preset run for `trace-read`: what a run with the console exporter
// writes, one file per process — span records with gym's attributes and each process's full
// resource (the record before the lean one: about 1.4 KB of file per span, as measured on a real
// `default` run), a metric record per metric per process every collection interval (1 s), a
// pino line per request served and a log record per rollout. A trace per rollout, whose first span
// (the collector's call of /run) links to the run's gym.job, a trace of its own, as gym writes
// them; a rollout starts every millisecond and lasts about a second, so the spans of a thousand
// rollouts interleave in every file, each written when it ends. `lean` writes the lean record instead (a resource record
// once per file, the identity on each line).
// Run alone: node --conditions=source --import tsx bench/support/generate-run.ts <dir> <spans> [lean]
import { createWriteStream, mkdirSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';

/** Spans per rollout. */
export const PER_ROLLOUT = 9;
const BASE = 1_767_225_600_000_000_000n;
const EVERY_NS = 1_000_000n;
const METRIC_INTERVAL_NS = 1_000_000_000n;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
// the run's gym.job: a trace of its own
const JOB_TRACE = hex(0xabcdef, 32);
const JOB = hex(1, 16);
// rollout `i`'s trace
const traceOf = (i: number) => `7f${hex(i, 30)}`;

interface Process {
  file: string;
  service: string;
  server: string;
  type: string;
  pid: number;
  port: number;
}

const PROCESSES: Record<string, Process> = {
  collector: { file: 'rollout_collection.log', service: 'nemo-gym/rollout_collection', server: 'rollout_collection', type: 'collector', pid: 4101, port: 0 },
  agent: { file: 'simple_agent.log', service: 'nemo-gym/simple_agent', server: 'simple_agent', type: 'responses_api_agents', pid: 4102, port: 9100 },
  model: { file: 'policy_model.log', service: 'nemo-gym/policy_model', server: 'policy_model', type: 'responses_api_models', pid: 4103, port: 9101 },
  resources: { file: 'weather.log', service: 'nemo-gym/weather', server: 'weather', type: 'resources_servers', pid: 4104, port: 9102 },
};

// every resource attribute the lens resource detectors set on a Linux host
function resourceOf(p: Process): Record<string, unknown> {
  return {
    'service.name': p.service,
    'service.instance.id': `${p.server}-7f3c2a91-${p.pid}`,
    'telemetry.sdk.name': 'opentelemetry',
    'telemetry.sdk.version': '2.12.0',
    'host.name': 'gpu-node-017.cluster.internal',
    'host.arch': 'amd64',
    'os.type': 'linux',
    'process.pid': p.pid,
    'process.executable.path': '/usr/local/bin/node',
    'process.runtime.name': 'nodejs',
    'process.runtime.version': '22.12.0',
    'process.owner': 'gym',
    'nemo.run.id': 'bench-run-0001',
    'nemo.gym.server.name': p.server,
    'nemo.gym.server.type': p.type,
    'nemo.gym.service_group': 'default',
    'gpu.count': 8,
  };
}

function iso(ns: bigint): string {
  const d = new Date(Number(ns / 1_000_000n)).toISOString();
  return `${d.slice(0, 19)}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}

/** Writes lines of one process: the full record (resource on every line) or the lean one. */
class ProcessWriter {
  readonly stream;
  readonly p: Process;
  readonly lean: boolean;
  #pending: string[] = [];
  #tail: string;

  constructor(dir: string, p: Process, lean: boolean) {
    this.p = p;
    this.lean = lean;
    this.stream = createWriteStream(join(dir, p.file));
    const resource = resourceOf(p);
    this.#tail = lean
      ? `"service.name":${JSON.stringify(p.service)},"service.instance.id":${JSON.stringify(resource['service.instance.id'])}}`
      : `"resource":${JSON.stringify({ attributes: resource })}}`;
    if (lean) this.#pending.push(JSON.stringify({ type: 'resource', 'service.name': p.service, 'service.instance.id': resource['service.instance.id'], 'process.pid': p.pid, attributes: resource }));
  }

  span(traceId: string, spanId: string, parent: string | null, name: string, kind: string, start: bigint, end: bigint, attributes: object, linkTo?: { trace_id: string; span_id: string }): void {
    const times = this.lean ? '' : `"start_time":"${iso(start)}","end_time":"${iso(end)}",`;
    const own = JSON.stringify({
      type: 'span',
      trace_id: traceId,
      span_id: spanId,
      parent_span_id: parent,
      name,
      kind,
      start_time_unix_nano: start.toString(),
      end_time_unix_nano: end.toString(),
      duration_ms: Number(end - start) / 1e6,
      status: { code: 'UNSET', message: null },
      attributes,
      ...(this.lean ? {} : { events: [] }),
      ...(this.lean && linkTo === undefined ? {} : { links: linkTo === undefined ? [] : [{ ...linkTo, attributes: {} }] }),
    });
    const scope = this.lean ? '' : `"scope":{"name":"nemo.gym","version":"0.1.0"},`;
    this.#pending.push(`${own.slice(0, -1)},${times}${scope}${this.#tail}`);
  }

  record(obj: Record<string, unknown>): void {
    const own = JSON.stringify(obj);
    this.#pending.push(`${own.slice(0, -1)},${this.#tail}`);
  }

  line(text: string): void {
    this.#pending.push(text);
  }

  async flush(force = false): Promise<void> {
    if (this.#pending.length === 0 || (!force && this.#pending.length < 4096)) return;
    if (!this.stream.write(this.#pending.splice(0).join('\n') + '\n')) await once(this.stream, 'drain');
  }
}

type Emit = (w: Record<string, ProcessWriter>, i: number) => void;

// span `j` of rollout `i` (ids unique per run), times in ms after the rollout's start
const id = (i: number, j: number) => hex(i * PER_ROLLOUT + j + 2, 16);
const at = (i: number, ms: number) => BASE + BigInt(i) * EVERY_NS + BigInt(Math.round(ms * 1000)) * 1000n;
const rolloutId = (i: number) => `${i}-0`;
const http = (method: string, url: string, port: number, status = 200) => ({
  'http.request.method': method,
  'url.full': url,
  'server.address': '127.0.0.1',
  'server.port': port,
  'http.response.status_code': status,
});
const served = (route: string, p: Process, status = 200) => ({
  'http.request.method': 'POST',
  'http.route': route,
  'url.path': route,
  'url.scheme': 'http',
  'server.address': '127.0.0.1',
  'server.port': p.port,
  'client.address': '127.0.0.1',
  'user_agent.original': 'undici',
  'http.response.status_code': status,
  'network.protocol.version': '1.1',
  'nemo.gym.server.name': p.server,
});
const pino = (p: Process, i: number, route: string, ms: number) =>
  `{"level":30,"time":${Number((at(i, ms) / 1_000_000n).toString())},"pid":${p.pid},"hostname":"gpu-node-017","reqId":"req-${i}-${route.length}","res":{"statusCode":200},"responseTime":${ms.toFixed(3)},"msg":"request completed"}`;

// each kind of span, by the time it ends (ms after its rollout's start); merged in end order
const SPANS: Array<{ endMs: number; emit: Emit }> = [
  {
    endMs: 380,
    emit: (w, i) =>
      w['agent']!.span(traceOf(i), id(i, 3), id(i, 2), 'HTTP POST', 'CLIENT', at(i, 4), at(i, 380), {
        ...http('POST', 'http://127.0.0.1:9101/v1/responses', 9101),
        'nemo.gym.rollout.id': rolloutId(i),
      }),
  },
  {
    endMs: 378,
    emit: (w, i) => {
      const p = PROCESSES['model']!;
      w['model']!.span(traceOf(i), id(i, 4), id(i, 3), 'POST /v1/responses', 'SERVER', at(i, 5), at(i, 378), { ...served('/v1/responses', p), 'nemo.gym.rollout.id': rolloutId(i) });
      w['model']!.line(pino(p, i, '/v1/responses', 373));
    },
  },
  {
    endMs: 377,
    emit: (w, i) =>
      w['model']!.span(traceOf(i), id(i, 5), id(i, 4), 'gym.model.responses', 'INTERNAL', at(i, 6), at(i, 377), {
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'vllm',
        'gen_ai.request.model': 'Qwen/Qwen3-8B',
        'gen_ai.response.model': 'Qwen/Qwen3-8B',
        'gen_ai.usage.input_tokens': 812 + (i % 97),
        'gen_ai.usage.output_tokens': 143 + (i % 61),
        'gen_ai.response.finish_reasons': ['stop'],
        'nemo.gym.rollout.id': rolloutId(i),
        'nemo.gym.server.name': 'policy_model',
      }),
  },
  {
    endMs: 990,
    emit: (w, i) =>
      w['agent']!.span(traceOf(i), id(i, 6), id(i, 2), 'HTTP POST', 'CLIENT', at(i, 700), at(i, 990), { ...http('POST', 'http://127.0.0.1:9102/verify', 9102), 'nemo.gym.rollout.id': rolloutId(i) }),
  },
  {
    endMs: 988,
    emit: (w, i) => {
      const p = PROCESSES['resources']!;
      w['resources']!.span(traceOf(i), id(i, 7), id(i, 6), 'POST /verify', 'SERVER', at(i, 702), at(i, 988), { ...served('/verify', p), 'nemo.gym.rollout.id': rolloutId(i) });
      w['resources']!.line(pino(p, i, '/verify', 286));
    },
  },
  {
    endMs: 987,
    emit: (w, i) =>
      w['resources']!.span(traceOf(i), id(i, 8), id(i, 7), 'gym.verify', 'INTERNAL', at(i, 703), at(i, 987), {
        'gym.verify.reward': i % 5 === 0 ? 0 : 1,
        'nemo.gym.rollout.id': rolloutId(i),
        'nemo.gym.server.name': 'weather',
      }),
  },
  {
    endMs: 995,
    emit: (w, i) => {
      w['agent']!.span(traceOf(i), id(i, 2), id(i, 1), 'gym.rollout', 'INTERNAL', at(i, 2), at(i, 995), {
        'nemo.gym.rollout.id': rolloutId(i),
        'nemo.gym.server.name': 'simple_agent',
        'nemo.gym.task.index': i,
        'gym.verify.reward': i % 5 === 0 ? 0 : 1,
      });
      w['agent']!.record({
        type: 'log',
        time: iso(at(i, 995)),
        time_unix_nano: at(i, 995).toString(),
        observed_time: iso(at(i, 995)),
        severity_text: 'INFO',
        severity_number: 9,
        body: 'rollout finished',
        attributes: { 'nemo.gym.rollout.id': rolloutId(i), reward: i % 5 === 0 ? 0 : 1 },
        trace_id: traceOf(i),
        span_id: id(i, 2),
        trace_flags: 1,
      });
    },
  },
  {
    endMs: 997,
    emit: (w, i) => {
      const p = PROCESSES['agent']!;
      w['agent']!.span(traceOf(i), id(i, 1), id(i, 0), 'POST /run', 'SERVER', at(i, 1), at(i, 997), { ...served('/run', p), 'nemo.gym.rollout.id': rolloutId(i) });
      w['agent']!.line(pino(p, i, '/run', 996));
    },
  },
  {
    endMs: 1000,
    emit: (w, i) =>
      w['collector']!.span(
        traceOf(i),
        id(i, 0),
        null,
        'HTTP POST',
        'CLIENT',
        at(i, 0),
        at(i, 1000),
        { ...http('POST', 'http://127.0.0.1:9100/run', 9100), 'nemo.gym.rollout.id': rolloutId(i) },
        { trace_id: JOB_TRACE, span_id: JOB },
      ),
  },
];

// one record per metric per process per interval, as the periodic reader exports them
function metrics(w: ProcessWriter, end: bigint, n: number): void {
  const start = BASE;
  const point = (extra: object) => ({ start_time_unix_nano: start.toString(), end_time_unix_nano: end.toString(), attributes: {}, ...extra });
  w.record({ type: 'metric', name: 'nodejs.eventloop.utilization', description: 'Event loop utilization', unit: '1', kind: 'GAUGE', data_points: [point({ value: 0.35 + (n % 7) / 100 })] });
  w.record({ type: 'metric', name: 'nodejs.eventloop.delay.p99', description: 'Event loop delay p99', unit: 's', kind: 'GAUGE', data_points: [point({ value: 0.012 + (n % 5) / 1000 })] });
  w.record({
    type: 'metric',
    name: 'v8js.gc.duration',
    unit: 's',
    kind: 'HISTOGRAM',
    temporality: 'CUMULATIVE',
    data_points: [point({ attributes: { 'v8js.gc.type': 'minor' }, count: 40 * n, sum: 0.002 * n, min: 0.0001, max: 0.01 })],
  });
  w.record({ type: 'metric', name: 'v8js.memory.heap.used', unit: 'By', kind: 'GAUGE', data_points: [point({ attributes: { 'v8js.heap.space.name': 'new_space' }, value: 8_000_000 + n })] });
  w.record({
    type: 'metric',
    name: 'http.server.request.duration',
    unit: 's',
    kind: 'HISTOGRAM',
    temporality: 'CUMULATIVE',
    data_points: [
      point({
        attributes: { 'http.request.method': 'POST', 'http.response.status_code': 200 },
        count: 1000 * n,
        sum: 400 * n,
        bucket_counts: [0, 0, 10, 200, 700, 90, 0],
        explicit_bounds: [0.005, 0.01, 0.05, 0.1, 0.5, 1],
      }),
    ],
  });
}

/** Writes a run of `rollouts` rollouts (about `PER_ROLLOUT` spans each) into `into`. */
export async function writeRun(into: string, rollouts: number, lean = false): Promise<void> {
  const writers = Object.fromEntries(Object.entries(PROCESSES).map(([k, p]) => [k, new ProcessWriter(into, p, lean)]));
  const next = SPANS.map(() => 0);
  const endUs = (k: number) => next[k]! * Number(EVERY_NS / 1000n) + SPANS[k]!.endMs * 1000;
  let nextMetric = BASE + METRIC_INTERVAL_NS;
  let intervals = 0;
  for (;;) {
    let k = -1;
    for (let c = 0; c < SPANS.length; c++) if (next[c]! < rollouts && (k === -1 || endUs(c) < endUs(k))) k = c;
    if (k === -1) break;
    const now = BASE + BigInt(endUs(k)) * 1000n;
    while (now >= nextMetric) {
      intervals++;
      for (const w of Object.values(writers)) metrics(w, nextMetric, intervals);
      nextMetric += METRIC_INTERVAL_NS;
    }
    SPANS[k]!.emit(writers, next[k]!++);
    for (const w of Object.values(writers)) await w.flush();
  }
  writers['collector']!.span(JOB_TRACE, JOB, null, 'gym.job', 'INTERNAL', BASE, BASE + BigInt(rollouts) * EVERY_NS + 1_000_000_000n, { 'nemo.gym.rollouts': rollouts });
  for (const w of Object.values(writers)) {
    await w.flush(true);
    w.stream.end();
    await once(w.stream, 'finish');
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const [into, spans, shape] = process.argv.slice(2);
  if (into === undefined || !(Number(spans) > 0)) throw new Error('usage: generate-run.ts <dir> <spans> [lean]');
  mkdirSync(into, { recursive: true });
  await writeRun(into, Math.ceil((Number(spans) - 1) / PER_ROLLOUT), shape === 'lean');
}

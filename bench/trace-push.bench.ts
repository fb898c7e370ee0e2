// `gym trace push` of a run of N spans to a local OTLP receiver, per protocol: the pushing
// process's wall time and CPU (the store is built before, unmeasured). With
// BENCH_COMPARE_ROOT=<another checkout> the two versions run alternately, round by round.
// Run: npm run bench -- trace-push   (BENCH_SPANS, BENCH_ROUNDS, BENCH_COMPARE_ROOT)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startOtlpReceiver } from '@gym/trace';

const SPANS = Number(process.env.BENCH_SPANS ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PER_LINE = 500;
const roots: Array<[string, string | undefined]> = [['this checkout', undefined]];
if (process.env.BENCH_COMPARE_ROOT) roots.unshift(['BENCH_COMPARE_ROOT', process.env.BENCH_COMPARE_ROOT]);

/** A run of SPANS spans as OTLP/JSON lines (the Collector's file format), SERVER/CLIENT pairs of rollouts. */
function writeRun(dir: string): void {
  const lines: string[] = [];
  const t0 = 1_767_225_600_000_000_000n;
  for (let first = 0; first < SPANS; first += PER_LINE) {
    const spans = [];
    for (let i = first; i < Math.min(SPANS, first + PER_LINE); i++) {
      const client = i % 2 === 1;
      spans.push({
        traceId: (Math.floor(i / 2) + 1).toString(16).padStart(32, '0'),
        spanId: (i + 1).toString(16).padStart(16, '0'),
        parentSpanId: client ? i.toString(16).padStart(16, '0') : '',
        name: client ? 'HTTP POST' : 'POST /v1/responses',
        kind: client ? 3 : 2,
        startTimeUnixNano: String(t0 + BigInt(i) * 1_000_000n),
        endTimeUnixNano: String(t0 + BigInt(i) * 1_000_000n + 500_000n),
        attributes: [
          { key: 'http.request.method', value: { stringValue: 'POST' } },
          { key: 'http.response.status_code', value: { intValue: '200' } },
          { key: 'nemo.gym.rollout.id', value: { stringValue: `${Math.floor(i / 2)}-0` } },
        ],
      });
    }
    lines.push(
      JSON.stringify({
        resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'nemo-gym/simple_agent' } }] }, scopeSpans: [{ scope: { name: '@gym/lens' }, spans }] }],
      }),
    );
  }
  writeFileSync(join(dir, 'spans.otlp.jsonl'), lines.join('\n') + '\n');
}

async function pushOnce(root: string | undefined, run: string, endpoint: string, protocol: string): Promise<{ wallMs: number; cpuMs: number }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', new URL('./support/push-process.ts', import.meta.url).pathname], {
    env: { ...process.env, GYM_PUSH_RUN: run, GYM_PUSH_ENDPOINT: endpoint, GYM_PUSH_PROTOCOL: protocol, ...(root === undefined ? {} : { GYM_PUSH_ROOT: root }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await once(child, 'exit');
  const result = JSON.parse(out) as { code: number; wallMs: number; cpuMs: number };
  if (result.code !== 0) throw new Error(`push exited ${result.code}`);
  return result;
}

const run = mkdtempSync(join(tmpdir(), 'gym-push-run-'));
const received = mkdtempSync(join(tmpdir(), 'gym-push-received-'));
writeRun(run);
const rx = await startOtlpReceiver({ outDir: received, grpcPort: 0, httpPort: 0 });
try {
  const endpoints = { grpc: `http://127.0.0.1:${rx.grpcPort}`, 'http/protobuf': `http://127.0.0.1:${rx.httpPort}` };
  console.log(`${SPANS} spans per push, ${ROUNDS} rounds; median wall ms and CPU ms of the pushing process`);
  for (const [protocol, endpoint] of Object.entries(endpoints)) {
    const results = new Map(roots.map(([name]) => [name, [] as Array<{ wallMs: number; cpuMs: number }>]));
    for (const [, root] of roots) await pushOnce(root, run, endpoint, protocol); // unmeasured: builds the store, warms the disk cache
    for (let round = 0; round < ROUNDS; round++) for (const [name, root] of roots) results.get(name)!.push(await pushOnce(root, run, endpoint, protocol));
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const rows = [...results].map(([name, rs]) => ({ name, wall: median(rs.map((r) => r.wallMs)), cpu: median(rs.map((r) => r.cpuMs)) }));
    for (const r of rows) console.log(`${protocol.padEnd(14)} ${r.name.padEnd(18)} wall ${r.wall.toFixed(0).padStart(6)} ms   cpu ${r.cpu.toFixed(0).padStart(6)} ms`);
    if (rows.length === 2) console.log(`${protocol.padEnd(14)} this ÷ compare     wall ${(rows[1]!.wall / rows[0]!.wall).toFixed(2)}   cpu ${(rows[1]!.cpu / rows[0]!.cpu).toFixed(2)}`);
  }
} finally {
  await rx.close();
  rmSync(run, { recursive: true, force: true });
  rmSync(received, { recursive: true, force: true });
}

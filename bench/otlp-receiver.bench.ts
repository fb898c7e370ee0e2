// The OTLP receiver's own CPU per span: a receiver process (`gym trace receive`'s code) is sent
// the same gRPC trace export, 256 spans of the kind gym's servers make, N times with 4 in flight,
// and its CPU time (every thread) is divided by the spans. With BENCH_COMPARE_ROOT=<another
// checkout> the two versions run alternately, round by round, on the same requests.
// Run: npm run bench -- otlp-receiver   (BENCH_EXPORTS, BENCH_ROUNDS, BENCH_COMPARE_ROOT)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as grpc from '@grpc/grpc-js';
import { SpanKind } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

const EXPORTS = Number(process.env.BENCH_EXPORTS ?? 1500);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SPANS = 256;
const EXPORT_PATH = '/opentelemetry.proto.collector.trace.v1.TraceService/Export';
const roots: Array<[string, string | undefined]> = [['this checkout', undefined]];
if (process.env.BENCH_COMPARE_ROOT) roots.unshift(['BENCH_COMPARE_ROOT', process.env.BENCH_COMPARE_ROOT]);

// one export as the SDK's OTLP exporter encodes it: SERVER and CLIENT spans with gym's attributes
function exportRequest(): Buffer {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'nemo-gym/simple_agent', 'service.instance.id': 'bench', 'nemo.run.id': 'run-bench', 'process.pid': 4242 }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('@gym/lens', '0.1.0');
  for (let i = 0; i < SPANS; i++) {
    const client = i % 2 === 1;
    const attributes = { 'http.request.method': 'POST', 'url.full': 'http://127.0.0.1:9000/v1/responses', 'http.response.status_code': 200, 'nemo.gym.rollout.id': `${i}-0` };
    tracer.startSpan(client ? 'HTTP POST' : 'POST /v1/responses', { kind: client ? SpanKind.CLIENT : SpanKind.SERVER, attributes }).end();
  }
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(exporter.getFinishedSpans())!);
}

async function receiverCpuPerSpan(root: string | undefined, request: Buffer): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'gym-otlp-receiver-'));
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', new URL('./support/receiver-process.ts', import.meta.url).pathname], {
    env: { ...process.env, GYM_RECEIVER_OUT: out, ...(root === undefined ? {} : { GYM_RECEIVER_ROOT: root }) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const client = new grpc.Client(`127.0.0.1:${JSON.parse((await lines.next()).value as string).port}`, grpc.credentials.createInsecure());
  const send = () =>
    new Promise<void>((resolve, reject) =>
      client.makeUnaryRequest(
        EXPORT_PATH,
        (b: Buffer) => b,
        (b: Buffer) => b,
        request,
        (err) => (err ? reject(err) : resolve()),
      ),
    );
  try {
    // unmeasured: a fresh process runs unoptimised code at first
    for (let i = 0; i < 200; i++) await send();
    child.stdin.write('start\n');
    let sent = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (sent < EXPORTS) {
          sent++;
          await send();
        }
      }),
    );
    child.stdin.write('stop\n');
    const { cpuMs } = JSON.parse((await lines.next()).value as string) as { cpuMs: number };
    return (cpuMs * 1000) / (EXPORTS * SPANS);
  } finally {
    client.close();
    if (child.exitCode === null) await once(child, 'exit');
    rmSync(out, { recursive: true, force: true });
  }
}

const request = exportRequest();
const results = new Map<string, number[]>(roots.map(([label]) => [label, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [label, root] of roots) results.get(label)!.push(await receiverCpuPerSpan(root, request));
  console.log(`round ${round + 1}: ${roots.map(([label]) => `${label} ${results.get(label)!.at(-1)!.toFixed(2)} µs`).join(' | ')}`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`\n${EXPORTS} gRPC exports of ${SPANS} spans per round, 4 in flight, node ${process.version}\n`);
console.log('| receiver | CPU µs per span (median) | rounds |');
console.log('| --- | --- | --- |');
for (const [label] of roots)
  console.log(
    `| ${label} | ${median(results.get(label)!).toFixed(2)} | ${results
      .get(label)!
      .map((x) => x.toFixed(2))
      .join(', ')} |`,
  );

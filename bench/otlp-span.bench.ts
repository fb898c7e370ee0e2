// CPU per span of lens's OTLP gRPC export in one process, side by side: a process making the agent's
// share of gym's spans (support/otlp-span-process.ts) with lens exporting them over OTLP gRPC to
// @gym/trace's receiver (a process of its own, not counted), against the same process with
// telemetry off; with GYM_LENS_BEFORE=<checkout>, that checkout's lens too. Variants alternate
// within each round; reported: the medians of CPU µs per span over "off".
// Run: npm run bench -- otlp-span   (BENCH_ROUNDS, BENCH_ROLLOUTS, GYM_LENS_BEFORE; BENCH_OTLP_SPAN_ENV: `K=V,K=V`
//   for the OTLP variants, BENCH_OTLP_SPAN_ENV_B: more variants, `;`-separated, each this checkout with that extra environment)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BEFORE = process.env.GYM_LENS_BEFORE;
const here = new URL('.', import.meta.url).pathname;
const parseEnv = (text: string | undefined): NodeJS.ProcessEnv =>
  Object.fromEntries(
    (text ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
const extra = parseEnv(process.env.BENCH_OTLP_SPAN_ENV);

interface Result {
  cpuUs: number;
  rollouts: number;
  spans: number;
  exported: number;
  lost: number;
}

function runChild(script: string, env: NodeJS.ProcessEnv): { lines: AsyncIterableIterator<string>; stdin: NodeJS.WritableStream; done: Promise<void> } {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', join(here, 'support', script)], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'inherit'] });
  const done = new Promise<void>((resolve, reject) => child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${script} exited with ${code}`)))));
  return { lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](), stdin: child.stdin, done };
}

const scratch = mkdtempSync(join(tmpdir(), 'gym-otlp-span-'));
const receiver = runChild('receiver-process.ts', { GYM_RECEIVER_OUT: join(scratch, 'received') });
try {
  const { port } = JSON.parse((await receiver.lines.next()).value as string) as { port: number };
  const otlpEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc', ...extra };
  const variants: Array<[string, NodeJS.ProcessEnv]> = [
    ['off', { BENCH_OTLP_SPAN_OFF: '1' }],
    ['OTLP, this checkout', otlpEnv],
    ...(BEFORE === undefined ? [] : [['OTLP, before', { ...otlpEnv, GYM_LENS_ROOT: BEFORE }] as [string, NodeJS.ProcessEnv]]),
    ...(process.env.BENCH_OTLP_SPAN_ENV_B ?? '')
      .split(';')
      .filter(Boolean)
      .map((variant): [string, NodeJS.ProcessEnv] => [`OTLP, this checkout + ${variant}`, { ...otlpEnv, ...parseEnv(variant) }]),
  ];
  const perSpan = new Map<string, number[]>(variants.map(([label]) => [label, []]));
  const load = [loadavg()[0]!];
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < variants.length; i++) {
      const [label, env] = variants[(i + round) % variants.length]!;
      const child = runChild('otlp-span-process.ts', env);
      const result = JSON.parse((await child.lines.next()).value as string) as Result;
      await child.done;
      if (label !== 'off' && (result.exported !== result.spans || result.lost !== 0)) throw new Error(`${label}: ${result.exported} of ${result.spans} exported, ${result.lost} lost`);
      perSpan.get(label)!.push(result.cpuUs / result.spans);
    }
    load.push(loadavg()[0]!);
    process.stderr.write(`round ${round + 1}/${ROUNDS}: ${variants.map(([l]) => `${l} ${perSpan.get(l)!.at(-1)!.toFixed(2)}`).join(' | ')} µs/span\n`);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const off = perSpan.get('off')!;
  console.log(`\n${ROUNDS} rounds, node ${process.version}, load average ${load.map((l) => l.toFixed(1)).join(' → ')}\n`);
  console.log('| variant | process CPU µs per span (median; rounds) | over off (median of per-round differences) |');
  console.log('| --- | --- | --- |');
  for (const [label] of variants) {
    const xs = perSpan.get(label)!;
    console.log(`| ${label} | ${median(xs).toFixed(2)} (${xs.map((x) => x.toFixed(2)).join(', ')}) | ${median(xs.map((x, i) => x - off[i]!)).toFixed(2)} |`);
  }
} finally {
  receiver.stdin.write('\n');
  receiver.stdin.write('\n');
  await receiver.done.catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
}

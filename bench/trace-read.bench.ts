// Read + assemble throughput of @gym/trace on a large console log, and the peak RSS it needs.
// Generates 1,000,000 console span lines (200k rollouts × 5 spans) in a temp file, reads them with
// readSpans, assembles traces and finds rollouts, then removes the file.
// Run: npm run bench -- trace-read   (TRACE_BENCH_SPANS=200000 for a quicker run)
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleTraces, findRollouts, readSpans } from '@gym/trace';

const SPANS = Number(process.env['TRACE_BENCH_SPANS'] ?? 1_000_000);
const PER_ROLLOUT = 5;
const BASE = 1_767_225_600_000_000_000n;

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

// The five spans of a rollout, as the agent writes them: POST /run > gym.rollout > HTTP POST > POST /v1/responses > gym.model.responses.
function rolloutLines(i: number): string[] {
  const traceId = hex(i + 1, 32);
  const at = BASE + BigInt(i) * 1_000_000n;
  const shape: Array<[string, string, string, number, number]> = [
    ['POST /run', 'SERVER', 'nemo-gym/simple_agent', 0, 1000],
    ['gym.rollout', 'INTERNAL', 'nemo-gym/simple_agent', 1, 999],
    ['HTTP POST', 'CLIENT', 'nemo-gym/simple_agent', 5, 605],
    ['POST /v1/responses', 'SERVER', 'nemo-gym/policy_model', 10, 600],
    ['gym.model.responses', 'INTERNAL', 'nemo-gym/policy_model', 12, 598],
  ];
  return shape.map(([name, kind, service, s, e], j) => {
    const start = at + BigInt(s) * 1_000_000n;
    const end = at + BigInt(e) * 1_000_000n;
    return JSON.stringify({
      type: 'span', trace_id: traceId, span_id: hex(i * PER_ROLLOUT + j + 1, 16), parent_span_id: j === 0 ? null : hex(i * PER_ROLLOUT + j, 16),
      name, kind, start_time_unix_nano: start.toString(), end_time_unix_nano: end.toString(), duration_ms: e - s,
      status: { code: 'UNSET', message: null }, attributes: { 'nemo.gym.rollout.id': `${i}-0` }, events: [], links: [],
      resource: { attributes: { 'service.name': service, 'nemo.run.id': 'bench' } }, scope: { name: 'nemo.gym', version: '0.1.0' },
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'gym-trace-bench-'));
const file = join(dir, 'spans.log');
try {
  const out = createWriteStream(file);
  for (let i = 0; i < SPANS / PER_ROLLOUT; i++) {
    if (!out.write(rolloutLines(i).join('\n') + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const bytes = statSync(file).size;

  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const t0 = performance.now();
  const { spans, stats } = await readSpans([file]);
  const t1 = performance.now();
  const set = assembleTraces(spans);
  const rollouts = findRollouts(set);
  const t2 = performance.now();
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const maxRssMiB = process.resourceUsage().maxRSS / 1024; // maxRSS is in KiB

  if (stats.spans !== SPANS || rollouts.length !== SPANS / PER_ROLLOUT) throw new Error(`read ${stats.spans} spans, ${rollouts.length} rollouts`);
  const mib = (b: number) => (b / 1048576).toFixed(0);
  console.log('| spans | file MiB | read s | read+assemble s | spans/s (read+assemble) | MiB/s read | peak RSS MiB (sampled) | maxRSS MiB | RSS before MiB |');
  console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  console.log(
    `| ${SPANS} | ${mib(bytes)} | ${((t1 - t0) / 1000).toFixed(2)} | ${((t2 - t0) / 1000).toFixed(2)} | ${Math.round(SPANS / ((t2 - t0) / 1000))} | ${(bytes / 1048576 / ((t1 - t0) / 1000)).toFixed(0)} | ${mib(peakRss)} | ${maxRssMiB.toFixed(0)} | ${mib(rssBefore)} |`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

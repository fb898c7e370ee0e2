// The log tee under a flood of child output: CPU time of the orchestrator
// reading (a) 10 MiB without a newline and (b) 300,000 `\r` progress redraws (tqdm), through the
// tee of this checkout and through the tee before the fix (read from git, commit LOG_TEE_BASELINE),
// side by side, alternating rounds. A head-server stand-in on the same event loop measures how late
// its timer fires while the tee works (the delay a request to the head server would see).
// Run: npm run bench -- log-tee-flood
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const BASELINE = process.env['LOG_TEE_BASELINE'] ?? 'b209da5';
const ROUNDS = Number(process.env['LOG_TEE_ROUNDS'] ?? 3);
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = 'packages/runtime/src';
interface Tee {
  teeChildOutput(stdout: PassThrough, stderr: PassThrough, options: { name: string; logPath: string; terminal: Writable; terminalErr: null }): { close(): Promise<void> };
}

/**
 * The tee's sources copied into `into` (from git at `revision`, or from this checkout), loaded from
 * there: the tee is internal to the runtime, not a package entry point a bench may import.
 */
async function loadTee(into: string, files: readonly string[], revision?: string): Promise<Tee> {
  for (const file of files) {
    mkdirSync(dirname(join(into, file)), { recursive: true });
    const text = revision === undefined ? readFileSync(join(ROOT, SRC, file)) : execFileSync('git', ['show', `${revision}:${SRC}/${file}`], { cwd: ROOT });
    writeFileSync(join(into, file), text);
  }
  return (await import(join(into, 'orchestrator/log-tee.ts'))) as Tee;
}

const dir = mkdtempSync(join(tmpdir(), 'gym-tee-bench-'));
const tees: [string, Tee][] = [
  ['before', await loadTee(join(dir, 'before'), ['orchestrator/log-tee.ts', 'orchestrator/readable-log-line.ts'], BASELINE)],
  // this checkout's tee is loaded where it is: it imports the secret scrubber from @gym/server, which resolves only from there
  ['now', (await import(join(ROOT, SRC, 'orchestrator/log-tee.ts'))) as Tee],
];

const CHUNK = 64 * 1024;
function floods(): Record<string, Buffer[]> {
  const noNewline = Array.from({ length: (10 * 1024 * 1024) / CHUNK }, () => Buffer.alloc(CHUNK, 'x'));
  const redraws = Buffer.from(Array.from({ length: 300_000 }, (_, i) => `\r${(i / 3000).toFixed(1)}%|████      | ${i}/300000 [00:10<00:20, 9000it/s]`).join(''));
  const progress: Buffer[] = [];
  for (let at = 0; at < redraws.length; at += CHUNK) progress.push(redraws.subarray(at, at + CHUNK));
  return { '10 MiB, no newline': noNewline, '300k \\r redraws': progress };
}

/** CPU ms of this process and the worst lateness of a 1 ms timer while `chunks` go through `tee`. */
async function measure(tee: Tee, chunks: Buffer[]): Promise<{ cpuMs: number; worstTimerLateMs: number }> {
  const out = new PassThrough();
  const sink = new Writable({ write: (_c, _e, done) => done() });
  const t = tee.teeChildOutput(out, new PassThrough().end(), { name: 'py', logPath: join(dir, 'bench.log'), terminal: sink, terminalErr: null });
  let worst = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 1);
    last = now;
  }, 1);
  const cpu = process.cpuUsage();
  for (const chunk of chunks) {
    out.write(chunk);
    // one chunk per turn of the event loop, as a pipe delivers them
    await new Promise((resolve) => setImmediate(resolve));
  }
  out.end();
  await t.close();
  const used = process.cpuUsage(cpu);
  clearInterval(timer);
  return { cpuMs: (used.user + used.system) / 1000, worstTimerLateMs: worst };
}

try {
  console.log(
    `baseline ${BASELINE}; ${ROUNDS} alternating rounds; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log('| flood | tee | CPU ms (min–max) | worst timer lateness ms (min–max) |');
  console.log('| --- | --- | ---: | ---: |');
  for (const [name, chunks] of Object.entries(floods())) {
    const results = new Map<string, { cpuMs: number; worstTimerLateMs: number }[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, tee] of round % 2 === 0 ? tees : [...tees].reverse()) {
        const list = results.get(label) ?? [];
        list.push(await measure(tee, chunks));
        results.set(label, list);
      }
    }
    for (const [label] of tees) {
      const list = results.get(label)!;
      const range = (pick: (r: { cpuMs: number; worstTimerLateMs: number }) => number) => `${Math.min(...list.map(pick)).toFixed(0)}–${Math.max(...list.map(pick)).toFixed(0)}`;
      console.log(`| ${name} | ${label} | ${range((r) => r.cpuMs)} | ${range((r) => r.worstTimerLateMs)} |`);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

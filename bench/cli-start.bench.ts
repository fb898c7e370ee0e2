/**
 * How long a `gym` command takes to start and answer: the CLI from its TypeScript sources through
 * tsx (how every command ran before gym ran compiled) beside the compiled CLI, and the whole `gym`
 * command (its wrapper, running the compiled CLI). Then `gym trace show --rollout` and `gym trace sql`
 * on a generated run of 20,000 spans whose store is written first, the compiled CLI beside `gym`.
 * Each round runs every variant once, in turn, so the machine's load falls on all alike; medians of
 * wall time and of CPU time (user + system, read through /usr/bin/time) per variant.
 * `npm run bench -- cli-start`; BENCH_CLI_ROUNDS sets the rounds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PER_ROLLOUT, writeRun } from './support/generate-run.js';

const RUNTIME = dirname(fileURLToPath(import.meta.resolve('@gym/runtime/package.json')));
const TIME = '/usr/bin/time';
const ROUNDS = Number(process.env['BENCH_CLI_ROUNDS'] ?? 9);

const VARIANTS = {
  'sources through tsx': ['--conditions=source', '--import', 'tsx', join(RUNTIME, 'src/cli/main.ts')],
  compiled: [join(RUNTIME, 'dist/cli/main.js')],
  'gym (wrapper + compiled)': [join(RUNTIME, 'bin/gym.mjs')],
};
const COMMANDS = [['--version'], ['trace', '--help']];
/** The variants run on a run's store (through tsx, each would only measure tsx again). */
const ON_A_RUN = ['compiled', 'gym (wrapper + compiled)'] as const;

/** One run: wall seconds, and CPU seconds when /usr/bin/time is there. */
function run(args: string[]): { wall: number; cpu: number | undefined } {
  const timed = existsSync(TIME);
  const [file, argv] = timed ? [TIME, ['-f', 'cpu %U %S', process.execPath, ...args]] : [process.execPath, args];
  const start = process.hrtime.bigint();
  const res = spawnSync(file, argv, { encoding: 'utf8', cwd: dirname(dirname(RUNTIME)) });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (res.status !== 0) throw new Error(`${args.join(' ')} exited ${res.status}: ${res.stderr}`);
  const m = /cpu ([\d.]+) ([\d.]+)/.exec(res.stderr);
  return { wall, cpu: m === null ? undefined : Number(m[1]) + Number(m[2]) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${ROUNDS} rounds`,
);
/** Runs `command` ROUNDS times per variant, the variants in turn, and prints the medians against the first variant. */
function compare(command: string[], variants: readonly (keyof typeof VARIANTS)[]): void {
  const walls = new Map<string, number[]>();
  const cpus = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of variants) {
      const { wall, cpu } = run([...VARIANTS[name], ...command]);
      walls.set(name, [...(walls.get(name) ?? []), wall]);
      if (cpu !== undefined) cpus.set(name, [...(cpus.get(name) ?? []), cpu]);
    }
  }
  console.log(`\ngym ${command.join(' ')}`);
  const base = median(walls.get(variants[0]!)!);
  for (const name of variants) {
    const wall = median(walls.get(name)!);
    const cpu = cpus.has(name) ? `${median(cpus.get(name)!).toFixed(2)} s CPU` : 'CPU not read';
    console.log(`  ${name.padEnd(26)} ${wall.toFixed(2)} s wall (${(wall / base).toFixed(2)}× the ${variants[0]}), ${cpu}`);
  }
}

for (const command of COMMANDS) compare(command, Object.keys(VARIANTS) as (keyof typeof VARIANTS)[]);
const dir = mkdtempSync(join(tmpdir(), 'gym-cli-start-'));
try {
  await writeRun(dir, Math.ceil((20_000 - 1) / PER_ROLLOUT));
  // the store, written once: the commands below read it
  run([...VARIANTS.compiled, 'trace', 'sql', 'SELECT 1', dir]);
  compare(['trace', 'show', '--rollout', '500-0', dir], ON_A_RUN);
  compare(['trace', 'sql', 'SELECT 1', dir], ON_A_RUN);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `\nload average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

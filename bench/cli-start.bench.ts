/**
 * How long a `gym` command takes to start and answer: the CLI from its TypeScript sources through
 * tsx (how every command ran before gym ran compiled) beside the compiled CLI, and the whole `gym`
 * command (its wrapper process, then the compiled CLI). Each round runs every variant once, in turn,
 * so the machine's load falls on all alike; medians of wall time and of CPU time (user + system, read
 * through /usr/bin/time) per variant. `npm run bench -- cli-start`; BENCH_CLI_ROUNDS sets the rounds.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNTIME = dirname(fileURLToPath(import.meta.resolve('@gym/runtime/package.json')));
const TIME = '/usr/bin/time';
const ROUNDS = Number(process.env['BENCH_CLI_ROUNDS'] ?? 9);

const VARIANTS = {
  'sources through tsx': ['--conditions=source', '--import', 'tsx', join(RUNTIME, 'src/cli/main.ts')],
  compiled: [join(RUNTIME, 'dist/cli/main.js')],
  'gym (wrapper + compiled)': [join(RUNTIME, 'bin/gym.mjs')],
};
const COMMANDS = [['--version'], ['trace', '--help']];

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
for (const command of COMMANDS) {
  const walls = new Map<string, number[]>();
  const cpus = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, prefix] of Object.entries(VARIANTS)) {
      const { wall, cpu } = run([...prefix, ...command]);
      walls.set(name, [...(walls.get(name) ?? []), wall]);
      if (cpu !== undefined) cpus.set(name, [...(cpus.get(name) ?? []), cpu]);
    }
  }
  console.log(`\ngym ${command.join(' ')}`);
  const base = median(walls.get('sources through tsx')!);
  for (const name of Object.keys(VARIANTS)) {
    const wall = median(walls.get(name)!);
    const cpu = cpus.has(name) ? `${median(cpus.get(name)!).toFixed(2)} s CPU` : 'CPU not read';
    console.log(`  ${name.padEnd(26)} ${wall.toFixed(2)} s wall (${(wall / base).toFixed(2)}× the sources), ${cpu}`);
  }
}
console.log(
  `\nload average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

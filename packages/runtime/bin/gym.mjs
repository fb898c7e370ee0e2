#!/usr/bin/env node
// The `gym` command: runs the CLI in a child Node process, forwarding signals and the exit code,
// when the command starts servers (`gym env start`, `gym eval run`…); help and the `gym trace`
// commands, which start none, run in this process, and the version is printed without loading the CLI.
// The CLI runs compiled (`dist/`, built by `npm run build`, which `npm ci` runs) while that build is
// current; in a checkout whose sources changed since, it runs them as written, through tsx (slower),
// so an edit is never silently ignored.
// A `gym trace` command reads or converts files (or, `gym trace receive`, listens in this process
// without starting any other): a Ctrl-C reaches it once, as it reaches any foreground command, and
// its own handlers end it with exit 130 (a store conversion first removes its unfinished files).
// The child runs in its own process group, so every signal reaches it exactly once, through this
// wrapper: a terminal's Ctrl-C (SIGINT to the foreground group), `kill -INT <pid of gym>`, SIGTERM
// and SIGHUP alike. An IPC channel is its liveness link: if this wrapper is killed with -9, the
// channel closes and the CLI stops its servers as it would on SIGTERM.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const COMPILED_MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const SOURCE_MAIN = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
// a build older than a folder rename lacks this module: it is then not current
const COMPILED_FRESHNESS = fileURLToPath(new URL('../dist/orchestrator/build-freshness.js', import.meta.url));
/**
 * The packages the CLI loads, each built from its `src/` with its record in `tsconfig.tsbuildinfo`:
 * folders beside this package's own, in a checkout (`packages/`) as in an install (`node_modules/@gym/`).
 */
const PACKAGES = ['names', 'lens', 'trace', 'server', 'runtime'].map((name) => fileURLToPath(new URL(`../../${name}/`, import.meta.url)));

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // the version of @gym/runtime, whatever the state of the build: no CLI to load
  process.stdout.on('error', () => undefined);
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const compiled = await compiledIsCurrent();
  if (!compiled && process.stderr.isTTY) {
    process.stderr.write('gym: the sources changed since the last build; running them through tsx (slower). `npm run build` compiles them.\n');
  }
  if (compiled && startsNoServer(args)) {
    // nothing to stop in a process group: a second process would only double the start-up
    await import(pathToFileURL(COMPILED_MAIN).href);
  } else {
    runInChild(compiled);
  }
}

/** The CLI in a child process, with signals forwarded and its exit code passed on. */
function runInChild(compiled) {
  const [flags, main] = compiled ? [[], COMPILED_MAIN] : [['--conditions=source', '--import', import.meta.resolve('tsx')], SOURCE_MAIN];
  const child = spawn(process.execPath, [...flags, main, ...process.argv.slice(2)], { stdio: ['inherit', 'inherit', 'inherit', 'ipc'], detached: true });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      try {
        child.kill(signal);
      } catch {
        // already gone
      }
    });
  }
  // a closed stdout/stderr (`gym … | head -1`) is the CLI's concern; this wrapper writes one line only,
  // when the CLI was killed
  process.stderr.on('error', () => undefined);
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal === null ? 1 : 128 + (constants.signals[signal] ?? 0));
    // the CLI turns every signal this wrapper forwards into an exit code of its own: dying of one
    // means something else killed it (kill -9, the OOM killer), which it could not say itself
    if (signal !== null) process.stderr.write(`gym: the gym CLI process (pid ${child.pid}) was killed by ${signal} (exit ${process.exitCode})\n`, () => undefined);
  });
}

/** An invocation that starts no server: help (`--help`, `-h`, `gym help …`, or no arguments) or a `gym trace` command. */
function startsNoServer(args) {
  return args.length === 0 || args[0] === 'help' || args[0] === 'trace' || args.includes('--help') || args.includes('-h');
}

/** True when the CLI can run compiled: built, and no package source is newer than its build (an install without sources always is). */
async function compiledIsCurrent() {
  if (!existsSync(COMPILED_MAIN) || !existsSync(COMPILED_FRESHNESS)) return false;
  if (!existsSync(SOURCE_MAIN)) return true;
  const { isBuildCurrent } = await import('../dist/orchestrator/build-freshness.js');
  return PACKAGES.every((dir) => isBuildCurrent(join(dir, 'tsconfig.tsbuildinfo'), [join(dir, 'src')]));
}

#!/usr/bin/env node
// The `gym` command: runs the CLI in a child Node process, forwarding signals and the exit code
// (help and the version, which only print, run in this process).
// The CLI runs compiled (`dist/`, built by `npm run build`, which `npm ci` runs) while that build is
// current; in a checkout whose sources changed since, it runs them as written, through tsx (slower),
// so an edit is never silently ignored.
// The child runs in its own process group, so every signal reaches it exactly once, through this
// wrapper: a terminal's Ctrl-C (SIGINT to the foreground group), `kill -INT <pid of gym>`, SIGTERM
// and SIGHUP alike. An IPC channel is its liveness link: if this wrapper is killed with -9, the
// channel closes and the CLI stops its servers as it would on SIGTERM.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const COMPILED_MAIN = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const SOURCE_MAIN = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
// a build older than a folder rename lacks this module: it is then not current
const COMPILED_FRESHNESS = fileURLToPath(new URL('../dist/orchestrator/build-freshness.js', import.meta.url));
/** The packages the CLI loads, each built from its `src/` with its record in `tsconfig.tsbuildinfo`. */
const PACKAGES = ['@gym/names', '@gym/lens', '@gym/trace', '@gym/server', '@gym/runtime'];

const compiled = await compiledIsCurrent();
if (!compiled && process.stderr.isTTY) {
  process.stderr.write('gym: the sources changed since the last build; running them through tsx (slower). `npm run build` compiles them.\n');
}
if (compiled && printsOnly(process.argv.slice(2))) {
  // nothing to stop or signal: a second process would only double the start-up
  await import(pathToFileURL(COMPILED_MAIN).href);
} else {
  runInChild(compiled);
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

/** An invocation that only prints: help (`--help`, `-h`, `gym help …`, or no arguments) or the version. */
function printsOnly(args) {
  return args.length === 0 || args[0] === 'help' || args.includes('--help') || args.includes('-h') || (args.length === 1 && (args[0] === '--version' || args[0] === '-V'));
}

/** True when the CLI can run compiled: built, and no package source is newer than its build (an install without sources always is). */
async function compiledIsCurrent() {
  if (!existsSync(COMPILED_MAIN) || !existsSync(COMPILED_FRESHNESS)) return false;
  if (!existsSync(SOURCE_MAIN)) return true;
  const { isBuildCurrent } = await import('../dist/orchestrator/build-freshness.js');
  return PACKAGES.every((name) => {
    const dir = dirname(fileURLToPath(import.meta.resolve(`${name}/package.json`)));
    return isBuildCurrent(join(dir, 'tsconfig.tsbuildinfo'), [join(dir, 'src')]);
  });
}

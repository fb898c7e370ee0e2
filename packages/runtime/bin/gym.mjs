#!/usr/bin/env node
// The `gym` command: runs the CLI from its TypeScript sources (no build step) in a child Node
// process with the flags that need, forwarding signals and the exit code.
// The child runs in its own process group, so every signal reaches it exactly once, through this
// wrapper: a terminal's Ctrl-C (SIGINT to the foreground group), `kill -INT <pid of gym>`, SIGTERM
// and SIGHUP alike. An IPC channel is its liveness link: if this wrapper is killed with -9, the
// channel closes and the CLI stops its servers as it would on SIGTERM.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const flags = ['--conditions=source', '--import', import.meta.resolve('tsx')];
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

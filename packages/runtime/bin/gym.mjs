#!/usr/bin/env node
// The `gym` command: runs the CLI from its TypeScript sources (no build step) in a child Node
// process with the flags that need, forwarding signals and the exit code.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
const flags = ['--conditions=source', '--import', import.meta.resolve('tsx')];
const child = spawn(process.execPath, [...flags, main, ...process.argv.slice(2)], { stdio: 'inherit' });
// The child sees the terminal's Ctrl-C itself (same process group); forward only what targets us.
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
process.on('SIGINT', () => {});
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal === 'SIGINT' ? 130 : 1);
});

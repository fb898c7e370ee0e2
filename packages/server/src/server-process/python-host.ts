/**
 * The host of one Python server: `node python-host.js '<{"command","args"}>'`, started
 * by the orchestrator like any server process (its environment, its directory, the IPC liveness
 * link of `parent-link.ts`). It runs the Python command in a process group of its own, with stdout
 * and stderr handed straight through (the orchestrator's log tee reads the interpreter's own
 * pipes; nothing is copied here), and stops that whole group — `uv run` and the interpreter it
 * starts — with SIGTERM, then SIGKILL after a grace period, when it is asked to stop (SIGTERM,
 * SIGINT, SIGHUP) or when its orchestrator goes away, however that dies. A Python server cannot
 * watch the liveness link itself; this process does it for it. Exits with the server's exit code
 * (128 + the signal number when the server died of a signal).
 * @module
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { watchParent } from './parent-link.js';
import { PYTHON_CHILD_MESSAGE_TYPE } from './python-child-message.js';
import type { PythonChildMessage } from './python-child-message.js';
import { guardStdio, safeWrite } from './stdio-guard.js';

/**
 * SIGTERM → SIGKILL grace for the Python group. Shorter than the orchestrator's own grace for
 * this host, so the host has always cleaned up before the orchestrator would kill it.
 */
export const PYTHON_STOP_GRACE_MS = 5_000;

interface HostArgs {
  command: string;
  args: string[];
}

function parseArgs(text: string | undefined): HostArgs {
  const parsed = JSON.parse(text ?? 'null') as Partial<HostArgs> | null;
  if (typeof parsed?.command !== 'string' || !Array.isArray(parsed.args)) throw new Error('usage: python-host.ts \'{"command": "...", "args": [...]}\'');
  return { command: parsed.command, args: parsed.args.map(String) };
}

/** Sends `signal` to the process group led by `pid`; a group already gone is fine. */
function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // every process of the group has ended
  }
}

function main(): void {
  const { command, args } = parseArgs(process.argv[2]);
  // detached: its own process group, so the stop reaches uv's child interpreter too, and a signal
  // meant for this host (or its group) is not delivered to Python twice
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  let stopping = false;
  const stop = (): void => {
    if (stopping || child.pid === undefined) return;
    stopping = true;
    signalGroup(child.pid, 'SIGTERM');
    setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), PYTHON_STOP_GRACE_MS).unref();
  };
  const release = watchParent(stop);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, stop);
  child.once('spawn', () => {
    const message: PythonChildMessage = { type: PYTHON_CHILD_MESSAGE_TYPE, pid: child.pid! };
    if (process.connected) process.send?.(message);
  });
  child.once('error', (error) => {
    safeWrite(process.stderr, `gym server failed to start: cannot run ${command}: ${error.message}\n`);
    release();
    process.exit(1);
  });
  child.once('exit', (code, signal) => {
    // whatever the interpreter left behind in its group (a worker, a subprocess) goes with it
    signalGroup(child.pid!, 'SIGKILL');
    release();
    process.exit(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
  });
}

guardStdio();
try {
  main();
} catch (error) {
  safeWrite(process.stderr, `gym server failed to start: ${(error as Error).message}\n`);
  process.exitCode = 1;
  process.disconnect?.();
}

// Runs the real `gym` CLI as a child process for end-to-end tests, and stops it by pid.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../server/src/testing/free-port.js';

export { freePort };

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const GYM_BIN = join(REPO_ROOT, 'packages/runtime/bin/gym.mjs');

export interface ServerInstance {
  process_name: string;
  server_type: string;
  url: string;
  pid: number;
}

export interface GymEnv {
  headUrl: string;
  servers: ServerInstance[];
  logDir: string;
  child: ChildProcess;
  /** Everything the CLI wrote so far, stdout and stderr interleaved (a function property: tests pass it around unbound). */
  output: () => string;
  url(instance: string): string;
  /** SIGTERM to the CLI; resolves with its exit code (143) once it has exited. Logs stay. */
  stop(): Promise<number | null>;
  /** `stop()`, then kills any server left (a test failure) and removes the log dir. */
  dispose(): Promise<void>;
}

/** A port that was free a moment ago. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** True while `pid` runs: a zombie (ended, not yet reaped by its parent) counts as ended. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return isAlive(pid) && process.platform !== 'linux';
  }
}

/** Resolves once none of `pids` runs (polled; the test runner's timeout bounds it). */
export async function waitUntilEnded(pids: readonly number[]): Promise<void> {
  while (pids.some(isRunning)) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The pids of `pid`'s children (Linux: /proc). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The start of `gym eval run` on the example environment with the simulated model: add the run's own flags. */
export const EXAMPLE_EVAL_RUN = ['eval', 'run', '--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'] as const;

/** The arguments of a `gym eval run` writing rollouts to `output` and logs to `logDir`, on a free head port, with console telemetry of `spanGroups`. */
export async function consoleTelemetryRun(output: string, logDir: string, spanGroups: string): Promise<string[]> {
  return ['-o', output, '--log-dir', logDir, `++head_server.port=${await freePort()}`, '++telemetry.enabled=true', '++telemetry.exporter=console', `++telemetry.span_groups=${spanGroups}`];
}

/** Runs `gym <args>` to completion (an `eval run` or `env start` on a free head port unless the args or `GYM_HEAD_URL` name one); resolves with exit code, stdout and stderr. */
export async function runGym(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = options.env ?? process.env;
  // the head server of an `eval run` or `env start` on a free port unless the test names one:
  // two test files run at once, and the default port is one port
  const startsHead = (args[0] === 'eval' && args[1] === 'run') || (args[0] === 'env' && args[1] === 'start');
  const headPort = startsHead && env['GYM_HEAD_URL'] === undefined && !args.some((a) => a.includes('head_server')) ? [`++head_server.port=${await freePort()}`] : [];
  const child = spawn(process.execPath, [GYM_BIN, ...args, ...headPort], { cwd: options.cwd ?? REPO_ROOT, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Starts `gym env start <args>` with a free head port and a temp log dir; resolves once ready. */
export async function startGymEnv(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<GymEnv> {
  const headPort = await freePort();
  const logDir = mkdtempSync(join(tmpdir(), 'gym-env-'));
  const child = spawn(process.execPath, [GYM_BIN, 'env', 'start', ...args, `++head_server.port=${headPort}`, '--log-dir', logDir], {
    cwd: options.cwd ?? REPO_ROOT,
    env: options.env ?? process.env,
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => {
      const check = () => (output.includes('head server: http') ? resolve(true) : undefined);
      child.stdout.on('data', check);
    }),
    exited.then(() => false),
  ]);
  if (!ready) throw new Error(`gym env start failed:\n${output}`);
  const headUrl = `http://127.0.0.1:${headPort}`;
  const servers = (await (await fetch(`${headUrl}/server_instances`)).json()) as ServerInstance[];
  let stopped: Promise<number | null> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    })());
  return {
    headUrl,
    servers,
    logDir,
    child,
    output: () => output,
    url: (name) => servers.find((s) => s.process_name === name)!.url,
    stop,
    async dispose() {
      await stop();
      for (const s of servers) if (isAlive(s.pid)) process.kill(s.pid, 'SIGKILL');
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}

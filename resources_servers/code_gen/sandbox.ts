/**
 * `runInSandbox()`: runs one program against its unit tests in a separate, resource-limited
 * process — `python3 -I runner.py` in its own process group and namespaces (isolation.ts), in a
 * fresh temporary directory removed afterwards, with a minimal environment, a wall-clock limit
 * enforced by killing the whole group, and a cap on what it may print. The runner adds memory and
 * file-size limits and an audit hook (runner.py). Whatever the program does, this resolves, and a
 * run that produced no result says why.
 * @module
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { besideSource } from '../beside-source.js';
import { isolationPrefix } from './isolation.js';

const RUNNER = fileURLToPath(besideSource(import.meta.url, './runner.py'));
/**
 * What the process may write to its real stdout: the runner's result line, and whatever the program
 * writes past its captured `sys.stdout` (the test's output itself is captured, never written here).
 */
const STDOUT_CAP = 4 * 1024 * 1024;
const STDERR_TAIL = 2048;

/** One program and its tests (LiveCodeBench's `input_output`). */
export interface SandboxJob {
  code: string;
  inputs: string[];
  outputs: string[];
  fnName: string | null;
}

/** Limits of one run. */
export interface SandboxLimits {
  /** Per test, as the original's `unit_test_timeout_secs`. */
  testTimeoutSecs: number;
  memoryBytes: number;
  /** Characters the program may print per test. */
  outputChars: number;
}

/** Per test: `true` passed, -2 wrong answer, -3 time limit, -4 runtime error; -1 each when the run was killed. */
export type TestResult = boolean | number;

/** The original's `(result, metadata)`, plus how the sandbox process ended. */
export interface SandboxOutcome {
  result: TestResult[];
  metadata: Record<string, unknown>;
  killed: 'time' | 'output' | null;
}

/** The original's limit for the whole run: `(timeout + 1)` per test plus 5 s. */
export function wallLimitMs(job: SandboxJob, limits: SandboxLimits): number {
  return ((limits.testTimeoutSecs + 1) * job.inputs.length + 5) * 1000;
}

/** Kills the process group led by `pid`; it may be gone already. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already ended
  }
}

/** Runs `job` in the sandbox. Never rejects for anything the program does. */
export async function runInSandbox(job: SandboxJob, limits: SandboxLimits): Promise<SandboxOutcome> {
  const dir = await mkdtemp(join(tmpdir(), 'gym-code-gen-'));
  try {
    const [command, ...args] = [...isolationPrefix(), 'python3', '-I', RUNNER];
    const child = spawn(command, args, {
      cwd: dir,
      detached: true, // its own process group, killed as one
      env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: dir, TMPDIR: dir, LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // The result line starts with a secret, so a program printing a result of its own is not believed.
    const nonce = randomBytes(16).toString('hex');
    let stdout = '';
    let stdoutBytes = 0;
    let stderr = '';
    let killed: SandboxOutcome['killed'] = null;
    const stop = (reason: 'time' | 'output') => {
      killed ??= reason;
      killGroup(child.pid);
    };
    const timer = setTimeout(() => stop('time'), wallLimitMs(job, limits));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdoutBytes += Buffer.byteLength(chunk);
      if (stdoutBytes > STDOUT_CAP) stop('output');
      else stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-STDERR_TAIL)));
    child.stdin.on('error', () => undefined); // a program that dies early closes its stdin
    child.stdin.end(
      JSON.stringify({
        nonce,
        code: job.code,
        inputs: job.inputs,
        outputs: job.outputs,
        fn_name: job.fnName,
        timeout: limits.testTimeoutSecs,
        memory_bytes: limits.memoryBytes,
        output_limit: limits.outputChars,
      }),
    );
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
      child.on('error', (error) => {
        stderr += String(error);
        resolve([null, null]);
      });
      child.on('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    clearTimeout(timer);
    killGroup(child.pid); // anything the program left behind in its group
    const parsed = killed === null ? resultLine(stdout, nonce) : undefined;
    if (parsed !== undefined) return { ...parsed, killed };
    return { result: job.inputs.map(() => -1), metadata: { error_code: -1, error_message: whyNoResult(killed, code, signal, job, limits, stderr) }, killed };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The runner's result: the last line starting with `nonce`. */
function resultLine(stdout: string, nonce: string): Omit<SandboxOutcome, 'killed'> | undefined {
  const at = stdout.lastIndexOf(`\n${nonce}`);
  if (at < 0) return undefined;
  const end = stdout.indexOf('\n', at + 1);
  try {
    const value = JSON.parse(stdout.slice(at + 1 + nonce.length, end < 0 ? undefined : end)) as { result?: unknown; metadata?: unknown };
    if (Array.isArray(value.result)) return { result: value.result as TestResult[], metadata: (value.metadata ?? {}) as Record<string, unknown> };
  } catch {
    // no result line: the process was cut short
  }
  return undefined;
}

function whyNoResult(killed: SandboxOutcome['killed'], code: number | null, signal: string | null, job: SandboxJob, limits: SandboxLimits, stderr: string): string {
  if (killed === 'time') return `Time limit of the whole run exceeded: killed after ${wallLimitMs(job, limits) / 1000} s`;
  if (killed === 'output') return 'Output limit exceeded: the program wrote past the cap to the real stdout, killed';
  const tail = stderr.trim() === '' ? '' : `: ${stderr.trim().split('\n').slice(-3).join(' | ')}`;
  return `The sandbox process ended without a result (${signal === null ? `exit code ${code}` : `signal ${signal}`})${tail}`;
}

/**
 * Starts and supervises a local `vllm serve` process: the command line from the config (the
 * checkpoint, `vllm_serve_kwargs` as `--flag=value`, gym's own `--host`/`--port`/
 * `--served-model-name`), its output in a log file, readiness as the original checks it (`GET
 * /v1/models` lists the served name) with a progress line every few seconds, and a stop that ends
 * the whole process group (SIGTERM, then SIGKILL after `shutdown_timeout_seconds`).
 * @module
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

/** The `subprocess` block of the config (the original's keys). */
export interface SubprocessSettings {
  executable: string;
  port: number | null;
  startup_timeout_seconds: number;
  shutdown_timeout_seconds: number;
  request_timeout_seconds: number;
  poll_interval_seconds: number;
  log_dir: string;
}

/** What to launch. */
export interface LaunchSpec {
  /** The name gym sends as `model` (vLLM's `--served-model-name`). */
  model: string;
  /** `vllm_serve_kwargs`: `model` (the checkpoint, default: `model`) and any `vllm serve` option. */
  kwargs: Record<string, unknown>;
  env: Record<string, string>;
  apiKey: string;
  settings: SubprocessSettings;
  /** Where progress lines go. */
  say: (line: string) => void;
}

/** Options the launcher owns: setting them in `vllm_serve_kwargs` is refused, as in the original. */
const MANAGED = new Set(['host', 'port', 'uds', 'root_path', 'ssl_keyfile', 'ssl_certfile', 'api_key', 'config']);

/** `vllm_serve_kwargs` as command-line arguments (`null` omits an option; booleans become `--x` / `--no-x`). */
export function serveArguments(kwargs: Record<string, unknown>): string[] {
  const argv: string[] = [];
  for (const [key, value] of Object.entries(kwargs)) {
    if (!/^[a-z][a-z0-9_-]*$/.test(key)) throw new Error(`vllm_serve_kwargs: invalid vLLM option name '${key}'`);
    if (MANAGED.has(key.replaceAll('-', '_'))) throw new Error(`vllm_serve_kwargs.${key} is managed by the launcher and cannot be set`);
    if (value === null || value === undefined) continue;
    const flag = `--${key.replaceAll('_', '-')}`;
    if (typeof value === 'boolean') argv.push(value ? flag : `--no-${key.replaceAll('_', '-')}`);
    else if (Array.isArray(value)) {
      if (value.length === 0) throw new Error(`vllm_serve_kwargs.${key}: an empty list; use null to omit it`);
      argv.push(flag, ...value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))));
    } else argv.push(`${flag}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  }
  return argv;
}

/** A free loopback port. */
async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** A running vLLM. */
export interface RunningVllm {
  baseUrl: string;
  pid: number;
  logFile: string;
  stop(): Promise<void>;
}

/** Starts vLLM and resolves once it serves `spec.model`; on any failure the process is stopped first. */
export async function launchVllm(spec: LaunchSpec): Promise<RunningVllm> {
  const { settings, say } = spec;
  const { model: checkpoint = spec.model, ...options } = spec.kwargs;
  if (typeof checkpoint !== 'string' || checkpoint === '' || checkpoint.startsWith('-')) throw new Error('vllm_serve_kwargs.model must be a checkpoint name or path, not an option');
  const port = settings.port ?? (await freePort());
  const argv = ['serve', checkpoint, ...serveArguments(options), '--host=127.0.0.1', `--port=${port}`, '--served-model-name', spec.model];
  const logDir = resolve(settings.log_dir);
  mkdirSync(logDir, { recursive: true });
  const logFile = join(logDir, `vllm-${port}-${process.pid}.log`);
  const log = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    // its own process group: the stop ends vLLM's workers too
    child = spawn(settings.executable, argv, { env: { ...process.env, ...spec.env, VLLM_API_KEY: spec.apiKey }, stdio: ['ignore', log, log], detached: true });
  } finally {
    closeSync(log);
  }
  const exited = new Promise<number | string>((done) => {
    child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown'));
    child.once('error', (error) => done(error.message));
  });
  let ended: number | string | undefined;
  void exited.then((why) => (ended = why));
  // a gym server that exits any way takes vLLM with it
  const killOnExit = () => signalGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);

  const stop = async (): Promise<void> => {
    process.off('exit', killOnExit);
    if (ended !== undefined) return;
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), settings.shutdown_timeout_seconds * 1000);
    await exited;
    clearTimeout(timer);
  };

  const baseUrl = `http://127.0.0.1:${port}/v1`;
  say(`starting vLLM: ${settings.executable} serve ${checkpoint} on port ${port}; its log: ${logFile}`);
  const started = performance.now();
  const deadline = started + settings.startup_timeout_seconds * 1000;
  let lastSaid = started;
  let last: string;
  try {
    for (;;) {
      if (ended !== undefined) throw new Error(`vLLM exited (${String(ended)}) before it was ready; see ${logFile}`);
      try {
        const res = await fetch(`${baseUrl}/models`, { headers: { authorization: `Bearer ${spec.apiKey}` }, signal: AbortSignal.timeout(settings.request_timeout_seconds * 1000) });
        last = `HTTP ${res.status}`;
        if (res.ok) {
          const body = (await res.json()) as { data?: Array<{ id?: unknown }> };
          if (Array.isArray(body.data) && body.data.some((m) => m?.id === spec.model)) break;
          last = `'${spec.model}' not yet in /v1/models`;
        }
      } catch (error) {
        last = (error as Error).name;
      }
      const now = performance.now();
      if (now > deadline) throw new Error(`vLLM was not ready within startup_timeout_seconds=${settings.startup_timeout_seconds} (${last}); see ${logFile}`);
      if (now - lastSaid >= 5000) {
        lastSaid = now;
        say(`waiting for vLLM: ${Math.round((now - started) / 1000)} s (${last}), ${Math.round((deadline - now) / 1000)} s left`);
      }
      await new Promise((r) => setTimeout(r, settings.poll_interval_seconds * 1000));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  say(`vLLM ready after ${((performance.now() - started) / 1000).toFixed(1)} s at ${baseUrl}`);
  return { baseUrl, pid: child.pid!, logFile, stop };
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

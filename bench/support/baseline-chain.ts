// Starts the hand-written three-process chain on free ports; stop() kills the processes by pid.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@gym/server/testing';

const SERVER = fileURLToPath(new URL('./baseline-server.ts', import.meta.url));

function start(args: string[], env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SERVER, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`baseline ${args[0]} exited ${code}`)));
  });
}

/** A running chain: the agent's URL and every server's pid (the agent's first). */
export interface BaselineChain {
  agentUrl: string;
  pids: number[];
  stop(): Promise<void>;
}

/**
 * Starts the chain; with `trace` each server traces by hand to its own output: `trace(role)` gives
 * its FLOOR_TRACE_OUT (`file:<path>` or `tcp:<port>`, see baseline-server.ts).
 */
export async function startBaselineChain(trace?: (role: string) => string): Promise<BaselineChain> {
  const [model, resources, agent] = [await freePort(), await freePort(), await freePort()];
  const env = (role: string): NodeJS.ProcessEnv => (trace === undefined ? process.env : { ...process.env, FLOOR_TRACE_OUT: trace(role) });
  const children = [
    await start(['agent', String(agent), `http://127.0.0.1:${model}`, `http://127.0.0.1:${resources}`], env('agent')),
    await start(['model', String(model)], env('model')),
    await start(['resources', String(resources)], env('resources')),
  ];
  return {
    agentUrl: `http://127.0.0.1:${agent}`,
    pids: children.map((c) => c.pid!),
    async stop() {
      await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : (c.once('exit', resolve), c.kill('SIGTERM'))))));
    },
  };
}

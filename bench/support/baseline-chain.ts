// Starts the hand-written three-process chain on free ports; stop() kills the processes by pid.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '@gym/runtime/testing';

const SERVER = fileURLToPath(new URL('./baseline-server.ts', import.meta.url));

function start(args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', SERVER, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`baseline ${args[0]} exited ${code}`)));
  });
}

export async function startBaselineChain(): Promise<{ agentUrl: string; stop(): Promise<void> }> {
  const [model, resources, agent] = [await freePort(), await freePort(), await freePort()];
  const children = [
    await start(['model', String(model)]),
    await start(['resources', String(resources)]),
    await start(['agent', String(agent), `http://127.0.0.1:${model}`, `http://127.0.0.1:${resources}`]),
  ];
  return {
    agentUrl: `http://127.0.0.1:${agent}`,
    async stop() {
      await Promise.all(children.map((c) => new Promise((resolve) => (c.exitCode !== null ? resolve(null) : (c.once('exit', resolve), c.kill('SIGTERM'))))));
    },
  };
}

// A real process tree for the memory tests: a Node process holding some memory, with one child
// holding more. Stopped by pid.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { isAlive } from '../support/gym-process.js';

export interface ProcessTree {
  pid: number;
  childPid: number;
  /** Kills the child only; resolves once the parent has reaped it. */
  killChild(): Promise<void>;
  /** Kills both, by pid. */
  stop(): void;
}

/** Starts `node` holding `parentMib` MiB with a child holding `childMib` MiB; resolves once both hold it. */
export async function startProcessTree(parentMib: number, childMib: number): Promise<ProcessTree> {
  const childScript = `const b = Buffer.alloc(${childMib} * 1024 * 1024, 1); process.stdout.write('held\\n'); setInterval(() => b[0]++, 1e6);`;
  const parentScript = [
    "const { spawn } = require('node:child_process');",
    `const held = Buffer.alloc(${parentMib} * 1024 * 1024, 1);`,
    `const child = spawn(process.execPath, ['-e', ${JSON.stringify(childScript)}], { stdio: ['ignore', 'pipe', 'inherit'] });`,
    "child.stdout.once('data', () => process.stdout.write('ready ' + child.pid + '\\n'));",
    "child.on('exit', () => process.stdout.write('reaped\\n'));",
    "process.on('SIGTERM', () => { child.kill('SIGKILL'); process.exit(0); });",
    'setInterval(() => held[0]++, 1e6);',
  ].join('\n');
  const parent = spawn(process.execPath, ['-e', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  parent.stdout.on('data', (d) => (output += d));
  while (!/ready \d+/.test(output)) await once(parent.stdout, 'data');
  const childPid = Number(/ready (\d+)/.exec(output)![1]);
  return {
    pid: parent.pid!,
    childPid,
    async killChild() {
      process.kill(childPid, 'SIGKILL');
      while (!output.includes('reaped')) await once(parent.stdout, 'data');
    },
    stop() {
      for (const pid of [childPid, parent.pid!]) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
    },
  };
}

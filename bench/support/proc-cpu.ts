// CPU seconds (user + system) a process has used so far, from /proc (Linux): every thread, or the
// main thread alone (the rest is V8's garbage-collector helpers and libuv's thread pool).
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

function cpuSecondsOf(statPath: string): number {
  const stat = readFileSync(statPath, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

export function processCpuSeconds(pid: number): number {
  return cpuSecondsOf(`/proc/${pid}/stat`);
}

/** The main thread's share of {@link processCpuSeconds}: the JavaScript thread of a Node process. */
export function mainThreadCpuSeconds(pid: number): number {
  return cpuSecondsOf(`/proc/${pid}/task/${pid}/stat`);
}

// CPU seconds (user + system, every thread) a process has used so far, from /proc (Linux).
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

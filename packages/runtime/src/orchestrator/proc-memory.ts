/**
 * Memory of a process tree and of the host, read from Linux `/proc` (nemo-gym-observability.md
 * §6.7): the tree is the root pid and its descendants (`/proc/<pid>/task/<tid>/children`, or the
 * parent pids of `/proc/<pid>/stat` on kernels without that file); per process RSS and PSS from
 * `smaps_rollup`, else RSS from `status`. Synchronous, small reads; never throws: a process that
 * vanishes between two reads is left out.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Memory of one process tree. */
export interface TreeMemory {
  /** Processes measured (the root and the descendants still alive). */
  processes: number;
  rssBytes: number;
  /** Known only when every process of the tree had one. */
  pssBytes: number | undefined;
}

/** Memory of the host (`/proc/meminfo`). */
export interface HostMemory {
  totalBytes: number;
  availableBytes: number;
}

/** The default `/proc` mount. */
export const PROC_ROOT = '/proc';
/** A runaway tree (a fork bomb in a tool) is cut here rather than read for seconds. */
const MAX_TREE_PROCESSES = 4096;

const field = (name: string) => new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm');
const RSS = field('Rss');
const PSS = field('Pss');
const VM_RSS = field('VmRSS');
const MEM_TOTAL = field('MemTotal');
const MEM_AVAILABLE = field('MemAvailable');

function kiB(text: string, pattern: RegExp): number | undefined {
  const match = pattern.exec(text);
  return match === null ? undefined : Number(match[1]) * 1024;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether this machine has a `/proc` to read (Linux). */
export function procAvailable(procRoot: string = PROC_ROOT): boolean {
  return read(`${procRoot}/meminfo`) !== undefined;
}

/** The host's total and available memory, or `undefined` without `/proc/meminfo`. */
export function readHostMemory(procRoot: string = PROC_ROOT): HostMemory | undefined {
  const text = read(`${procRoot}/meminfo`);
  if (text === undefined) return undefined;
  const totalBytes = kiB(text, MEM_TOTAL);
  const availableBytes = kiB(text, MEM_AVAILABLE);
  return totalBytes === undefined || availableBytes === undefined ? undefined : { totalBytes, availableBytes };
}

/** RSS and PSS of one process, or `undefined` when it is gone (or a zombie, which has no memory). */
export function readProcessMemory(pid: number, procRoot: string = PROC_ROOT): { rssBytes: number; pssBytes: number | undefined } | undefined {
  const rollup = read(`${procRoot}/${pid}/smaps_rollup`);
  const rollupRss = rollup === undefined ? undefined : kiB(rollup, RSS);
  if (rollupRss !== undefined) return { rssBytes: rollupRss, pssBytes: kiB(rollup!, PSS) };
  // smaps_rollup needs ptrace access (another user's process) and Linux ≥ 4.14; status is world-readable
  const status = read(`${procRoot}/${pid}/status`);
  const rssBytes = status === undefined ? undefined : kiB(status, VM_RSS);
  return rssBytes === undefined ? undefined : { rssBytes, pssBytes: undefined };
}

/** The pids of `root` and its descendants, root first; `[]` when `root` is gone. */
export function processTree(root: number, procRoot: string = PROC_ROOT): number[] {
  const seen = new Set<number>();
  const queue = [root];
  let byParent: Map<number, number[]> | undefined;
  for (let i = 0; i < queue.length && seen.size < MAX_TREE_PROCESSES; i++) {
    const pid = queue[i]!;
    if (seen.has(pid)) continue; // a reused pid must not loop
    const children = childrenFromTasks(pid, procRoot);
    if (children === 'gone') continue;
    seen.add(pid);
    queue.push(...(children ?? (byParent ??= parentMap(procRoot)).get(pid) ?? []));
  }
  return [...seen];
}

/** Children of `pid` from its threads' `children` files; `undefined` when the kernel has none. */
function childrenFromTasks(pid: number, procRoot: string): number[] | 'gone' | undefined {
  let tasks: string[];
  try {
    tasks = readdirSync(`${procRoot}/${pid}/task`);
  } catch {
    return 'gone';
  }
  let supported = false;
  const children: number[] = [];
  for (const tid of tasks) {
    const text = read(`${procRoot}/${pid}/task/${tid}/children`);
    if (text === undefined) continue; // a thread that just ended, or no CONFIG_PROC_CHILDREN
    supported = true;
    for (const word of text.split(' ')) if (word.trim() !== '') children.push(Number(word));
  }
  return supported || tasks.length === 0 ? children : undefined;
}

/** Every process's parent, from `/proc/<pid>/stat` (field 4, after the parenthesised command). */
function parentMap(procRoot: string): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync(procRoot);
  } catch {
    return byParent;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = read(`${procRoot}/${entry}/stat`);
    if (stat === undefined) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isInteger(ppid)) continue;
    const siblings = byParent.get(ppid);
    if (siblings === undefined) byParent.set(ppid, [Number(entry)]);
    else siblings.push(Number(entry));
  }
  return byParent;
}

/** Memory of the tree rooted at `root`, or `undefined` when `root` is gone. */
export function readTreeMemory(root: number, procRoot: string = PROC_ROOT): TreeMemory | undefined {
  let processes = 0;
  let rssBytes = 0;
  let pssBytes: number | undefined = 0;
  for (const pid of processTree(root, procRoot)) {
    const memory = readProcessMemory(pid, procRoot);
    if (memory === undefined) {
      if (pid === root) return undefined;
      continue;
    }
    processes++;
    rssBytes += memory.rssBytes;
    pssBytes = pssBytes === undefined || memory.pssBytes === undefined ? undefined : pssBytes + memory.pssBytes;
  }
  return processes === 0 ? undefined : { processes, rssBytes, pssBytes };
}

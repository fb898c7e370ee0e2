/**
 * Memory of a process tree and of the host, read from Linux `/proc` (docs/observability/metrics.md,
 * "Memory profiling"): the tree is the root pid and its descendants (`/proc/<pid>/task/<tid>/children`, or the
 * parent pids of `/proc/<pid>/stat` on kernels without that file). RSS comes from `status`
 * (`VmRSS`), a small synchronous read (~15 µs); PSS from `smaps_rollup`, which makes the kernel walk
 * the whole address space (measured: 4 ms for a 250 MiB Node process, growing with its size), so it
 * is read asynchronously, off the event loop. Never throws: a process that vanishes between two
 * reads is left out.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** RSS of one process tree. */
export interface TreeMemory {
  /** The processes measured: the root first, then the descendants still alive. */
  pids: number[];
  rssBytes: number;
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

/** RSS of one process, or `undefined` when it is gone (or a zombie, which has no memory). */
export function readProcessRss(pid: number, procRoot: string = PROC_ROOT): number | undefined {
  const status = read(`${procRoot}/${pid}/status`);
  return status === undefined ? undefined : kiB(status, VM_RSS);
}

/**
 * PSS of one process, read without blocking the event loop; `undefined` when it is gone or its
 * `smaps_rollup` is not readable (another user's process needs ptrace access; Linux < 4.14 has none).
 */
export async function readProcessPss(pid: number, procRoot: string = PROC_ROOT): Promise<number | undefined> {
  try {
    return kiB(await readFile(`${procRoot}/${pid}/smaps_rollup`, 'utf8'), PSS);
  } catch {
    return undefined;
  }
}

/** PSS of `pids` summed, known only when every one of them has one. */
export async function readTreePss(pids: readonly number[], procRoot: string = PROC_ROOT): Promise<number | undefined> {
  const each = await Promise.all(pids.map((pid) => readProcessPss(pid, procRoot)));
  return each.some((pss) => pss === undefined) ? undefined : each.reduce<number>((sum, pss) => sum + pss!, 0);
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

/** RSS of the tree rooted at `root`, or `undefined` when `root` is gone. */
export function readTreeMemory(root: number, procRoot: string = PROC_ROOT): TreeMemory | undefined {
  const pids: number[] = [];
  let rssBytes = 0;
  for (const pid of processTree(root, procRoot)) {
    const rss = readProcessRss(pid, procRoot);
    if (rss === undefined) {
      if (pid === root) return undefined;
      continue;
    }
    pids.push(pid);
    rssBytes += rss;
  }
  return pids.length === 0 ? undefined : { pids, rssBytes };
}

/**
 * Who listens on a TCP port, read from Linux `/proc`: the readiness proof of servers that cannot
 * echo gym's start token (Python servers, `process/server-identity.ts`). A server counts as ready
 * only when a process of the tree gym started holds the listening socket of its port, so another
 * program answering on that port is never taken for it. Never throws.
 * @module
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { PROC_ROOT, processTree } from './proc-memory.js';

const LISTEN = '0A';

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Inodes of the sockets listening on `port` (IPv4 and IPv6), or `undefined` without `/proc/net`. */
export function listeningInodes(port: number, procRoot: string = PROC_ROOT): Set<string> | undefined {
  const tables = [read(`${procRoot}/net/tcp`), read(`${procRoot}/net/tcp6`)].filter((t): t is string => t !== undefined);
  if (tables.length === 0) return undefined;
  const inodes = new Set<string>();
  for (const table of tables) {
    // "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode"
    for (const line of table.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== LISTEN) continue;
      const local = fields[1]!;
      if (Number.parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port) inodes.add(fields[9]!);
    }
  }
  return inodes;
}

/** Whether one of `pids` has one of `inodes` open. */
function holdsSocket(pids: readonly number[], inodes: ReadonlySet<string>, procRoot: string): boolean {
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`${procRoot}/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`${procRoot}/${pid}/fd/${fd}`);
        if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return true;
      } catch {
        // closed meanwhile
      }
    }
  }
  return false;
}

/**
 * `'ours'` when a process of the tree rooted at `root` listens on `port`, `'other'` when another
 * process does (or none does), `'unknown'` on a machine without `/proc` (the caller then takes any
 * HTTP answer, as the original does).
 */
export function portOwner(root: number, port: number, procRoot: string = PROC_ROOT): 'ours' | 'other' | 'unknown' {
  const inodes = listeningInodes(port, procRoot);
  if (inodes === undefined) return 'unknown';
  if (inodes.size === 0) return 'other';
  return holdsSocket(processTree(root, procRoot), inodes, procRoot) ? 'ours' : 'other';
}

/**
 * Processes a server leaves behind when it stops: descendants that left its process group
 * (`setsid()`, a daemon) and so got no SIGTERM or SIGKILL of the group, and any process still
 * holding the server's output pipes, which would keep the log tee (and gym) waiting for good.
 * Found through Linux `/proc`: the server's tree is read while it runs, before it is asked to stop
 * (once it ends, its orphans belong to init and no longer look like its descendants); the pipes
 * are found by their inode in every process's open files. Processes are told apart from a later
 * one with a reused pid by their start time. Never throws; without `/proc` finds nothing.
 * @module
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { PROC_ROOT, processTree } from './proc-memory.js';
import { listeningAddressesOf } from './port-owner.js';

/** A process of a server's tree, as read while the server ran. */
interface KnownProcess {
  pid: number;
  /** Field 22 of `/proc/<pid>/stat`: tells this process from a later one with the same pid. */
  startTime: string;
}

/** What a server's stop can check afterwards: its processes and its output pipes. */
export interface ServerTreeSnapshot {
  processes: KnownProcess[];
  /** `pipe:[<inode>]` of the server's stdout and stderr. */
  pipes: Set<string>;
}

/** A process that outlived its server, and what became of it. */
export interface LeftoverProcess {
  pid: number;
  /** Its command line, shortened. */
  command: string;
  /** Where it listened (`127.0.0.1:8001`), read before it was killed. */
  listening: string[];
  /** True when SIGKILL was delivered; false when it was not ours to kill. */
  killed: boolean;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

function startTime(pid: number, procRoot: string): string | undefined {
  const stat = read(`${procRoot}/${pid}/stat`);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // a zombie has ended: nothing of it holds a pipe or a port
  return fields[0] === 'Z' ? undefined : fields[19];
}

function link(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** Reads the tree of the server process `root` and its output pipes; call it while the server runs. */
export function snapshotServerTree(root: number, procRoot: string = PROC_ROOT): ServerTreeSnapshot {
  const processes: KnownProcess[] = [];
  for (const pid of processTree(root, procRoot)) {
    const started = startTime(pid, procRoot);
    if (started !== undefined) processes.push({ pid, startTime: started });
  }
  const pipes = new Set([link(`${procRoot}/${root}/fd/1`), link(`${procRoot}/${root}/fd/2`)].filter((t): t is string => t?.startsWith('pipe:[') === true));
  return { processes, pipes };
}

/** Pids (not this process) with one of `pipes` open. */
function pipeHolders(pipes: ReadonlySet<string>, procRoot: string): number[] {
  if (pipes.size === 0) return [];
  let entries: string[];
  try {
    entries = readdirSync(procRoot);
  } catch {
    return [];
  }
  const holders: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let fds: string[];
    try {
      fds = readdirSync(`${procRoot}/${entry}/fd`);
    } catch {
      continue; // gone, or another user's
    }
    if (fds.some((fd) => pipes.has(link(`${procRoot}/${entry}/fd/${fd}`) ?? ''))) holders.push(Number(entry));
  }
  return holders;
}

function commandOf(pid: number, procRoot: string): string {
  const text = (read(`${procRoot}/${pid}/cmdline`) ?? '').split('\0').filter(Boolean).join(' ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

/**
 * SIGKILLs what is left of a stopped server: the processes of `snapshot` still running (same start
 * time), and every process still holding its output pipes. Returns them, with where they listened.
 */
export function killLeftovers(snapshot: ServerTreeSnapshot, procRoot: string = PROC_ROOT): LeftoverProcess[] {
  const pids = new Set(snapshot.processes.filter((p) => startTime(p.pid, procRoot) === p.startTime).map((p) => p.pid));
  for (const pid of pipeHolders(snapshot.pipes, procRoot)) pids.add(pid);
  pids.delete(process.pid);
  const leftovers: LeftoverProcess[] = [];
  for (const pid of pids) {
    const found = { pid, command: commandOf(pid, procRoot), listening: listeningAddressesOf(pid, procRoot) };
    try {
      process.kill(pid, 'SIGKILL');
      leftovers.push({ ...found, killed: true });
    } catch (error) {
      // ended meanwhile (nothing to report), or not ours to kill
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') leftovers.push({ ...found, killed: false });
    }
  }
  return leftovers;
}

/** `pid 123 (python3 -c …, listening on 127.0.0.1:8001) killed` for each, joined. */
export function describeLeftovers(leftovers: readonly LeftoverProcess[]): string {
  return leftovers
    .map((p) => {
      const where = p.listening.length > 0 ? `, listening on ${p.listening.join(', ')}` : '';
      return `pid ${p.pid} (${p.command}${where}) ${p.killed ? 'killed' : 'could not be killed; stop it by hand'}`;
    })
    .join('; ');
}

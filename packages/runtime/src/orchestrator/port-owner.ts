/**
 * Who listens on a TCP address, read from Linux `/proc`: the readiness proof of servers that cannot
 * echo gym's start token (Python servers, `server-process/server-identity.ts`). A server counts as ready
 * only when a process of the tree gym started holds the listening socket that answers a connection
 * to its configured address and port, so another program answering there is never taken for it —
 * not even when the server listens on the same port of another address (127.0.0.2 beside a
 * foreign 127.0.0.1). Never throws.
 * @module
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { isIPv4, isIPv6 } from 'node:net';
import { PROC_ROOT, processTree } from './proc-memory.js';

const LISTEN = '0A';
const IPV4_ANY = '00000000';
const IPV6_ANY = '0'.repeat(32);
/** `::ffff:` before an IPv4 address in an IPv6 socket's address. */
const V4_MAPPED = `${'0'.repeat(20)}ffff`;

/** One listening socket of `/proc/net/tcp` or `tcp6`: its address as hex bytes in network order. */
export interface ListeningSocket {
  inode: string;
  /** 8 hex digits for IPv4, 32 for IPv6, lower case, network byte order. */
  address: string;
  port: number;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** `/proc/net/tcp*` prints each 32-bit word of an address in host (little-endian) order. */
function networkOrder(hex: string): string {
  let out = '';
  for (let word = 0; word < hex.length; word += 8) {
    const w = hex.slice(word, word + 8);
    out += w.slice(6, 8) + w.slice(4, 6) + w.slice(2, 4) + w.slice(0, 2);
  }
  return out.toLowerCase();
}

/** Every listening TCP socket (IPv4 and IPv6), or `undefined` without `/proc/net`. */
export function listeningSockets(procRoot: string = PROC_ROOT): ListeningSocket[] | undefined {
  const tables = [read(`${procRoot}/net/tcp`), read(`${procRoot}/net/tcp6`)].filter((t): t is string => t !== undefined);
  if (tables.length === 0) return undefined;
  const sockets: ListeningSocket[] = [];
  for (const table of tables) {
    // "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode"
    for (const line of table.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== LISTEN) continue;
      const local = fields[1]!;
      const colon = local.lastIndexOf(':');
      sockets.push({ inode: fields[9]!, address: networkOrder(local.slice(0, colon)), port: Number.parseInt(local.slice(colon + 1), 16) });
    }
  }
  return sockets;
}

/** An IP address as hex bytes in network order (the form of {@link ListeningSocket.address}). */
export function addressHex(ip: string): string | undefined {
  if (isIPv4(ip))
    return ip
      .split('.')
      .map((b) => Number(b).toString(16).padStart(2, '0'))
      .join('');
  if (!isIPv6(ip)) return undefined;
  let text = ip.toLowerCase().split('%')[0]!;
  // a trailing dotted IPv4 part (`::ffff:127.0.0.1`) is two 16-bit groups
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const v4 = addressHex(dotted[1]!)!;
    text = `${text.slice(0, -dotted[1]!.length)}${v4.slice(0, 4)}:${v4.slice(4)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part === undefined || part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = groups(tail);
  const middle = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...middle, ...right].map((g) => g.padStart(4, '0')).join('');
}

/**
 * The sockets that take a connection to `ip`:`port`: the ones bound to exactly that address (an
 * IPv4 address also as `::ffff:a.b.c.d`) when there are any, since the kernel prefers the most
 * specific bind, else the ones bound to the wildcard (`0.0.0.0`, `::`).
 */
export function socketsAnswering(sockets: readonly ListeningSocket[], ip: string, port: number): ListeningSocket[] {
  const hex = addressHex(ip);
  if (hex === undefined) return [];
  const onPort = sockets.filter((s) => s.port === port);
  const v4 = hex.length === 8;
  const exact = onPort.filter((s) => s.address === hex || (v4 && s.address === V4_MAPPED + hex));
  if (exact.length > 0) return exact;
  return onPort.filter((s) => s.address === IPV6_ANY || (v4 && s.address === IPV4_ANY));
}

/** The socket inodes `pid` has open (none when it is gone or not ours to read). */
export function socketInodesOf(pid: number, procRoot: string = PROC_ROOT): Set<string> {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = readdirSync(`${procRoot}/${pid}/fd`);
  } catch {
    return inodes; // gone, or not ours to read
  }
  for (const fd of fds) {
    try {
      const target = readlinkSync(`${procRoot}/${pid}/fd/${fd}`);
      if (target.startsWith('socket:[')) inodes.add(target.slice(8, -1));
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** Whether one of `pids` has one of `inodes` open. */
function holdsSocket(pids: readonly number[], inodes: ReadonlySet<string>, procRoot: string): boolean {
  return pids.some((pid) => [...socketInodesOf(pid, procRoot)].some((inode) => inodes.has(inode)));
}

/** The addresses a connection to `host` goes to: a wildcard host is reached on loopback, a name through the resolver. */
async function addressesOf(host: string): Promise<string[]> {
  if (host === '0.0.0.0') return ['127.0.0.1'];
  if (host === '::' || host === '[::]') return ['::1'];
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIPv4(bare) || isIPv6(bare)) return [bare];
  try {
    return (await lookup(bare, { all: true })).map((a) => a.address);
  } catch {
    return [];
  }
}

/**
 * `'ours'` when the sockets that take connections to `host`:`port` are held by the tree rooted at
 * `root`, `'other'` when another process holds one of them (or none listens there), `'unknown'` on
 * a machine without `/proc` (the caller then takes any HTTP answer, as the original does). For a
 * host name, every address it resolves to that has a listener must be answered by the tree.
 */
export async function portOwner(root: number, host: string, port: number, procRoot: string = PROC_ROOT): Promise<'ours' | 'other' | 'unknown'> {
  const sockets = listeningSockets(procRoot);
  if (sockets === undefined) return 'unknown';
  const tree = processTree(root, procRoot);
  let ours = false;
  for (const ip of await addressesOf(host)) {
    const answering = socketsAnswering(sockets, ip, port);
    if (answering.length === 0) continue;
    if (!holdsSocket(tree, new Set(answering.map((s) => s.inode)), procRoot)) return 'other';
    ours = true;
  }
  return ours ? 'ours' : 'other';
}

/** The `address:port` pairs `pid` listens on, for a report (`127.0.0.1:8000`, `[::]:8000`). */
export function listeningAddressesOf(pid: number, procRoot: string = PROC_ROOT): string[] {
  const held = socketInodesOf(pid, procRoot);
  if (held.size === 0) return [];
  return (listeningSockets(procRoot) ?? []).filter((s) => held.has(s.inode)).map((s) => `${displayAddress(s.address)}:${s.port}`);
}

function displayAddress(hex: string): string {
  if (hex.length === 8) return [0, 2, 4, 6].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join('.');
  if (hex.startsWith(V4_MAPPED)) return displayAddress(hex.slice(V4_MAPPED.length));
  const groups = [0, 4, 8, 12, 16, 20, 24, 28].map((i) => Number.parseInt(hex.slice(i, i + 4), 16).toString(16));
  return `[${groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::')}]`;
}

/**
 * The namespaces code_gen's sandbox process gets: a new network namespace (no network: only a
 * loopback that is down) and a new pid namespace (everything the program starts dies with it), via
 * `unshare` — as root, or unprivileged through a user namespace. Probed once per process; where
 * `unshare` is missing or refused (containers without user namespaces, macOS), the sandbox runs
 * without them and relies on the runner's audit hook alone for network and processes.
 * @module
 */
import { spawnSync } from 'node:child_process';

const UNSHARE = ['unshare', '--map-root-user', '--net', '--pid', '--fork', '--kill-child'];
let probed: string[] | undefined;

/** The command prefix that isolates a child process, `[]` when this machine cannot. */
export function isolationPrefix(): string[] {
  probed ??= spawnSync(UNSHARE[0]!, [...UNSHARE.slice(1), 'true'], { stdio: 'ignore', timeout: 5000 }).status === 0 ? UNSHARE : [];
  return probed;
}

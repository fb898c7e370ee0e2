/**
 * The lock a command holds while it adds to a run's store (`store.lock`, the holder's pid in it).
 * A second command that finds the lock held by a live process says so and waits for it; a lock
 * left by a process that is gone (killed mid-conversion) is taken over.
 * @module
 */
import { open, readFile, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';

/** Name of the lock file in the store directory. */
export const LOCK_FILE = 'store.lock';

/** A held lock; {@link release} removes it. */
export interface StoreLock {
  path: string;
  release(): Promise<void>;
}

/**
 * Takes the lock at `path`. While another live process holds it, calls `onWait` once with its pid
 * and checks again every `pollMs` until it is released or its holder is gone.
 */
export async function takeLock(path: string, onWait: (holderPid: number) => void, pollMs = 100): Promise<StoreLock> {
  const token = `${process.pid} ${randomBytes(6).toString('hex')}`;
  let told = false;
  for (;;) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(token);
      await handle.close();
      return { path, release: () => releaseIfOurs(path, token) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = await readFile(path, 'utf8').catch(() => '');
    const pid = Number(holder.split(' ')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
      // the holder died (Ctrl-C, kill -9): its work was never published, the lock is stale
      await rm(path, { force: true });
      continue;
    }
    if (!told) onWait(pid);
    told = true;
    await sleep(pollMs);
  }
}

async function releaseIfOurs(path: string, token: string): Promise<void> {
  const now = await readFile(path, 'utf8').catch(() => '');
  if (now === token) await rm(path, { force: true });
}

/** True when a process of that pid exists (signal 0 only asks; EPERM: it exists, under another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

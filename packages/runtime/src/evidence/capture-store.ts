/**
 * `CaptureStore`: the rollout-keyed, append-only files of model-call capture,
 * `<dir>/<rollout_id>.capture.jsonl`, one raw exchange per line. Each line is appended with one
 * `write` on an `O_APPEND` descriptor and then `fdatasync`ed: on a local filesystem the kernel
 * places each append whole at the end of the file, so several model servers (or workers) may
 * append to one rollout's file at once without interleaving. A process killed mid-write leaves at
 * most one unterminated last line, which the reader counts as unreadable instead of failing.
 * @module
 */
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';

const VALID_ROLLOUT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** The lines of one rollout's capture file. */
export interface CaptureRead {
  /** Parsed exchanges with their line position (the durable append order). */
  exchanges: { index: number; exchange: Record<string, unknown> }[];
  /** Lines that are not JSON objects (e.g. cut short by a killed writer). */
  unreadable: number;
  /** False when there is no capture file for the rollout. */
  exists: boolean;
}

/** True when `id` can name a capture file (no separators, no leading dot). */
export function isCaptureRolloutId(id: string): boolean {
  return VALID_ROLLOUT_ID.test(id);
}

/** The capture files under one directory. */
export class CaptureStore {
  readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  /** `<root>/<rolloutId>.capture.jsonl`. @throws {Error} for an id that cannot name a file. */
  pathFor(rolloutId: string): string {
    if (!isCaptureRolloutId(rolloutId)) throw new Error(`invalid rollout id for a capture file: ${JSON.stringify(rolloutId)}`);
    return join(this.root, `${rolloutId}.capture.jsonl`);
  }

  /** Appends one exchange as one line, durably. Rejects on I/O errors (callers log them). */
  async append(rolloutId: string, exchange: Record<string, unknown>): Promise<void> {
    const path = this.pathFor(rolloutId);
    const line = Buffer.from(`${JSON.stringify(exchange)}\n`, 'utf8');
    mkdirSync(this.root, { recursive: true });
    const handle = await open(path, 'a');
    try {
      let offset = 0;
      while (offset < line.length) offset += (await handle.write(line, offset, line.length - offset)).bytesWritten;
      await handle.datasync();
    } finally {
      await handle.close();
    }
  }

  /** Reads a rollout's exchanges; a missing file reads as empty with `exists: false`. */
  read(rolloutId: string): CaptureRead {
    let text: string;
    try {
      text = readFileSync(this.pathFor(rolloutId), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { exchanges: [], unreadable: 0, exists: false };
      throw error;
    }
    const exchanges: CaptureRead['exchanges'] = [];
    let unreadable = 0;
    let index = 0;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const value = JSON.parse(line) as unknown;
        if (value !== null && typeof value === 'object' && !Array.isArray(value)) exchanges.push({ index, exchange: value as Record<string, unknown> });
        else unreadable++;
      } catch {
        unreadable++;
      }
      index++;
    }
    return { exchanges, unreadable, exists: true };
  }

  /** Deletes a rollout's capture (a stale one of an earlier attempt with the same id). */
  clear(rolloutId: string): void {
    rmSync(this.pathFor(rolloutId), { force: true });
  }

  /** Bytes and count of the capture files of `rolloutIds` that exist. */
  usage(rolloutIds: Iterable<string>): { files: number; bytes: number } {
    let files = 0;
    let bytes = 0;
    for (const id of rolloutIds) {
      try {
        bytes += statSync(this.pathFor(id)).size;
        files++;
      } catch {
        // no capture for this rollout
      }
    }
    return { files, bytes };
  }
}

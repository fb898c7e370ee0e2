/**
 * `CaptureStore`: the rollout-keyed, append-only files of model-call capture,
 * `<dir>/<rollout_id>.capture.jsonl`, one raw exchange per line. Each line is appended with one
 * `write` on an `O_APPEND` descriptor and then `fdatasync`ed: on a local filesystem the kernel
 * places each append whole at the end of the file, so several model servers (or workers) may
 * append to one rollout's file at once without interleaving. A process killed mid-write leaves at
 * most one unterminated last line, which the reader counts as unreadable instead of failing; the
 * next exchange starts on a fresh line. A write that fails part-way (a full disk) is cut back when
 * no other writer appended since, and an empty marker `<rollout_id>.capture.jsonl.lost-<ERRNO>`
 * (a name needs no free data block) records the loss, so the health verdict names the disk
 * instead of blaming the trajectory. Files are 0600 in a 0700 directory: they hold whole prompts.
 * @module
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { scrubJsonText } from '../config/secret-scrub.js';
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
  /** The errno code (`ENOSPC`) of an exchange that could not be written, when one was lost. */
  lost?: string;
}

/** The errno codes of a lost write that {@link CaptureStore.read} looks for. */
const LOST_CODES = ['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO', 'EROFS'];

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
    const line = Buffer.from(`${scrubJsonText(JSON.stringify(exchange))}\n`, 'utf8');
    // whole prompts and replies: readable by their owner only, as the logs are
    mkdirSync(this.root, { recursive: true, mode: 0o700 });
    let handle;
    try {
      handle = await open(path, 'a+', 0o600);
    } catch (error) {
      this.#markLost(rolloutId, error);
      throw error;
    }
    let size = 0;
    let written = 0;
    try {
      size = (await handle.stat()).size;
      // a line cut short by a killed writer must not swallow this one
      const last = Buffer.alloc(1);
      const record = size > 0 && (await handle.read(last, 0, 1, size - 1)).bytesRead === 1 && last[0] !== 0x0a ? Buffer.concat([Buffer.from('\n'), line]) : line;
      while (written < record.length) written += (await handle.write(record, written, record.length - written)).bytesWritten;
      await handle.datasync();
    } catch (error) {
      // cut back only a file no other writer appended to since: theirs must stay whole
      if (written > 0 && (await handle.stat().catch(() => undefined))?.size === size + written) await handle.truncate(size).catch(() => undefined);
      this.#markLost(rolloutId, error);
      throw error;
    } finally {
      await handle.close();
    }
  }

  /** Leaves the empty marker of a lost write; on a disk too full even for that, nothing. */
  #markLost(rolloutId: string, error: unknown): void {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined || !LOST_CODES.includes(code)) return;
    try {
      closeSync(openSync(`${this.pathFor(rolloutId)}.lost-${code}`, 'a', 0o600));
    } catch {
      // no inode left either
    }
  }

  /** Reads a rollout's exchanges; a missing file reads as empty with `exists: false`. */
  read(rolloutId: string): CaptureRead {
    let text: string;
    try {
      text = readFileSync(this.pathFor(rolloutId), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const lost = this.#lostCode(rolloutId);
      return { exchanges: [], unreadable: 0, exists: false, ...(lost === undefined ? {} : { lost }) };
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
    const lost = this.#lostCode(rolloutId);
    return { exchanges, unreadable, exists: true, ...(lost === undefined ? {} : { lost }) };
  }

  #lostCode(rolloutId: string): string | undefined {
    return LOST_CODES.find((code) => existsSync(`${this.pathFor(rolloutId)}.lost-${code}`));
  }

  /** Deletes a rollout's capture (a stale one of an earlier attempt with the same id). */
  clear(rolloutId: string): void {
    rmSync(this.pathFor(rolloutId), { force: true });
    for (const code of LOST_CODES) rmSync(`${this.pathFor(rolloutId)}.lost-${code}`, { force: true });
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

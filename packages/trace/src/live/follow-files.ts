/**
 * Follows telemetry files as they grow: each poll reads what was appended since the last one
 * (whole lines only; a line still being written waits for the next poll) and picks up files that
 * appeared. A file that shrank (rewritten) is read again from its start.
 * @module
 */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { expandPaths } from '../read/expand-paths.js';

const CHUNK_BYTES = 1024 * 1024;

interface Followed {
  offset: number;
  partial: string;
  lineNo: number;
  decoder: StringDecoder;
}

/** Where to start reading a file: a byte offset just after a whole line, and the lines before it. */
export interface FollowStart {
  offset: number;
  lineNo: number;
}

/** Reads the new lines of `paths` (files or directories, searched as the other commands do) on each {@link FileFollower.poll}. */
export class FileFollower {
  #paths: readonly string[];
  #files = new Map<string, Followed>();
  #onLine: (file: string, line: string, lineNo: number) => void;
  #start: ReadonlyMap<string, FollowStart>;
  #behind = 0;

  /** `start` (by absolute path): files read up to there already, by the store; the others are read from their start. */
  constructor(paths: readonly string[], onLine: (file: string, line: string, lineNo: number) => void, start: ReadonlyMap<string, FollowStart> = new Map()) {
    this.#paths = paths;
    this.#onLine = onLine;
    this.#start = start;
  }

  /** Number of files followed. */
  get files(): number {
    return this.#files.size;
  }

  /** Bytes appended but not read yet, as of the last poll. */
  get behindBytes(): number {
    return this.#behind;
  }

  /**
   * Reads what was appended since the last poll, at most `maxBytes` from the file furthest behind
   * and from each other file the same share of what it has left; returns the bytes read. The
   * files of a run are written side by side, so equal shares keep them at about the same time of
   * the run: reading them byte for byte, a small file would be done while a large one was at a
   * fifth, and every rollout begun in the small one would wait in flight for the rest.
   */
  async poll(maxBytes = Number.POSITIVE_INFINITY): Promise<number> {
    const backlog: Array<{ path: string; bytes: number; f: Followed }> = [];
    for (const { path, bytes } of await expandPaths(this.#paths)) {
      let f = this.#files.get(path);
      if (f === undefined || bytes < f.offset) {
        // a file that shrank below where the store ended was rewritten: read it whole
        const from = f === undefined ? this.#start.get(resolve(path)) : undefined;
        const at = from !== undefined && from.offset <= bytes ? from : { offset: 0, lineNo: 0 };
        this.#files.set(path, (f = { offset: at.offset, partial: '', lineNo: at.lineNo, decoder: new StringDecoder('utf8') }));
      }
      if (bytes > f.offset) backlog.push({ path, bytes, f });
    }
    const furthest = backlog.reduce((most, { bytes, f }) => Math.max(most, bytes - f.offset), 0);
    const share = furthest <= maxBytes ? 1 : maxBytes / furthest;
    let read = 0;
    let behind = 0;
    for (const { path, bytes, f } of backlog) {
      read += await this.#readNew(path, f, Math.min(bytes, f.offset + Math.ceil((bytes - f.offset) * share)));
      behind += Math.max(0, bytes - f.offset);
    }
    this.#behind = behind;
    return read;
  }

  async #readNew(path: string, f: Followed, upTo: number): Promise<number> {
    const handle = await open(path, 'r');
    const start = f.offset;
    try {
      const buf = Buffer.allocUnsafe(CHUNK_BYTES);
      while (f.offset < upTo) {
        const { bytesRead } = await handle.read(buf, 0, Math.min(CHUNK_BYTES, upTo - f.offset), f.offset);
        if (bytesRead === 0) break;
        f.offset += bytesRead;
        this.#split(path, f, f.decoder.write(buf.subarray(0, bytesRead)));
      }
    } finally {
      await handle.close();
    }
    return f.offset - start;
  }

  #split(path: string, f: Followed, chunk: string): void {
    const text = f.partial + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      f.lineNo++;
      this.#onLine(path, text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl), f.lineNo);
      start = nl + 1;
    }
    f.partial = text.slice(start);
  }
}

/**
 * The index build's writes, done on libuv's threads while the build goes on scanning: written
 * with `writeSync`, the kernel's copy of ~1 GB per million spans into the page cache took as long
 * as the rest of the build, on the one thread that scans. Each write names its file offset, so
 * writes to one file may finish in any order; the bytes in flight are bounded (see {@link ready}).
 * @module
 */
import { write } from 'node:fs';

/** Bytes in flight above which {@link WriteQueue.ready} waits. */
export const MAX_BYTES_IN_FLIGHT = 16 * 1024 * 1024;

/** Writes buffers at given offsets of open files; buffers handed to it are not touched again by the caller. */
export class WriteQueue {
  #inFlight = 0;
  #writes = 0;
  #error: NodeJS.ErrnoException | null = null;
  #waiting: Array<() => void> = [];
  #idle: Array<() => void> = [];
  #spare: Buffer[] = [];
  readonly #bufferBytes: number;

  constructor(bufferBytes: number) {
    this.#bufferBytes = bufferBytes;
  }

  /** A buffer of the queue's size to fill (one handed back by a finished write, or a new one). */
  buffer(): Buffer {
    return this.#spare.pop() ?? Buffer.allocUnsafe(this.#bufferBytes);
  }

  /** Writes `buf` from 0 to `length` at `position` of `fd`; a buffer of the queue's size is reused after. */
  write(fd: number, buf: Buffer, length: number, position: number): void {
    this.#inFlight += length;
    this.#writes++;
    this.#writeFrom(fd, buf, 0, length, position);
  }

  /** Resolves when the bytes in flight are few enough to go on; rejects with a failed write's error. */
  ready(): Promise<void> | undefined {
    if (this.#error !== null) return Promise.reject(this.#error);
    if (this.#inFlight <= MAX_BYTES_IN_FLIGHT) return undefined;
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Resolves when every write has finished (never rejects: see {@link error}). */
  settled(): Promise<void> {
    if (this.#writes === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /** Bytes handed to {@link write} whose write has not finished. */
  get bytesInFlight(): number {
    return this.#inFlight;
  }

  /** The first write that failed, if one did. */
  get error(): NodeJS.ErrnoException | null {
    return this.#error;
  }

  #writeFrom(fd: number, buf: Buffer, offset: number, length: number, position: number): void {
    write(fd, buf, offset, length, position, (err, written) => {
      if (err === null && written > 0 && written < length) return this.#writeFrom(fd, buf, offset + written, length - written, position + written);
      this.#error ??= err ?? (written < length ? Object.assign(new Error('a write to an index file wrote nothing'), { code: 'EIO' }) : null);
      this.#inFlight -= offset + length;
      this.#writes--;
      if (buf.length === this.#bufferBytes) this.#spare.push(buf);
      if (this.#error !== null || this.#inFlight <= MAX_BYTES_IN_FLIGHT) this.#waiting = wake(this.#waiting);
      if (this.#writes === 0) this.#idle = wake(this.#idle);
    });
  }
}

function wake(waiting: Array<() => void>): Array<() => void> {
  for (const resolve of waiting) resolve();
  return [];
}

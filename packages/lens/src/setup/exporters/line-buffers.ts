/**
 * JSON lines gathered into one chunk (an export's, or lines appended one at a time as spans end):
 * bytes in a reused buffer for a file or a socket, text for any other stream. Joining the lines into one string and letting the stream turn it into bytes made
 * two large objects per export (a string of a few hundred KB, then a Buffer of it) for a busy
 * server's garbage collector; bytes are encoded straight into a buffer kept from one export to the
 * next. Only for streams that are done with a chunk when its write callback runs (`fs.WriteStream`,
 * `net.Socket` and so `tty.WriteStream`): a PassThrough hands the very chunk to its reader later,
 * so reusing it would corrupt what the reader has not read yet.
 * @module
 */
import { WriteStream } from 'node:fs';
import { Socket } from 'node:net';

/** Room a batch buffer starts with: a 256-span export of gym's spans is about 300 KB. */
const INITIAL_BYTES = 512 * 1024;
/** A buffer grown past this (a flush of a long backlog) is not kept for reuse. */
const MAX_KEPT_BYTES = 4 * 1024 * 1024;
/** Free buffers kept: one being written while the next batch is encoded, and one spare. */
const MAX_FREE = 2;
const NEWLINE = 0x0a;

/** Whether `stream` is one whose chunks may be reused once their write callback has run. */
export function releasesChunksOnCallback(stream: object): boolean {
  return stream instanceof WriteStream || stream instanceof Socket;
}

/** One export's lines, newline-terminated: as text, or as bytes in a reused buffer. */
export interface LineBatch {
  readonly data: string | Buffer;
  readonly records: number;
  /** Items whose line could not be made (their `toLine` threw). */
  readonly failed: number;
  /** For bytes in a reused buffer: hands it back; call once the stream is done with `data`. */
  readonly release?: () => void;
}

/** Lines appended one at a time, handed out as one batch by `take`. */
export interface OpenLines {
  /** Lines appended since the last `take`. */
  readonly records: number;
  /** Their size so far (bytes, or UTF-16 units for text). */
  readonly size: number;
  /** Appends `line` and a newline. */
  append(line: string): void;
  /** The lines appended since the last `take`, as one batch; the next line starts a new one. */
  take(): Omit<LineBatch, 'failed'>;
}

/** Appends the line of each item to `lines`; an item whose line throws is counted, not written. */
export function appendLines<T>(lines: OpenLines, items: readonly T[], toLine: (item: T) => string): number {
  let failed = 0;
  for (const item of items) {
    let line: string;
    try {
      line = toLine(item);
    } catch {
      failed++;
      continue;
    }
    lines.append(line);
  }
  return failed;
}

/** Lines joined into one string, for a stream that may hold its chunk after writing it. */
export class TextLines implements OpenLines {
  #text = '';
  records = 0;

  get size(): number {
    return this.#text.length;
  }

  append(line: string): void {
    this.#text += `${line}\n`;
    this.records++;
  }

  take(): Omit<LineBatch, 'failed'> {
    const batch = { data: this.#text, records: this.records };
    this.#text = '';
    this.records = 0;
    return batch;
  }
}

/** Lines encoded into reused buffers as they are appended. */
export class LineBuffers implements OpenLines {
  readonly #free: Buffer[] = [];
  #buffer: Buffer | undefined;
  #at = 0;
  records = 0;

  get size(): number {
    return this.#at;
  }

  append(line: string): void {
    let buffer = (this.#buffer ??= this.#free.pop() ?? Buffer.allocUnsafeSlow(INITIAL_BYTES));
    // a UTF-16 code unit takes at most 3 bytes in UTF-8, so this much room never cuts a line
    const room = line.length * 3 + 1;
    if (this.#at + room > buffer.length) buffer = this.#buffer = grown(buffer, this.#at, this.#at + room);
    this.#at += buffer.write(line, this.#at);
    buffer[this.#at++] = NEWLINE;
    this.records++;
  }

  take(): Omit<LineBatch, 'failed'> & { readonly data: Buffer; readonly release: () => void } {
    const kept = this.#buffer ?? Buffer.allocUnsafeSlow(0);
    const batch = { data: kept.subarray(0, this.#at), records: this.records };
    this.#buffer = undefined;
    this.#at = 0;
    this.records = 0;
    let released = false;
    // once only: a buffer in the free list twice would be handed to two batches at once
    const release = (): void => {
      if (released) return;
      released = true;
      this.#release(kept);
    };
    return { ...batch, release };
  }

  /** Encodes the line of each item into a reused buffer; an item whose line throws is counted, not written. */
  encode<T>(items: readonly T[], toLine: (item: T) => string): LineBatch & { readonly data: Buffer; readonly release: () => void } {
    const failed = appendLines(this, items, toLine);
    return { ...this.take(), failed };
  }

  #release(buffer: Buffer): void {
    if (buffer.length > 0 && buffer.length <= MAX_KEPT_BYTES && this.#free.length < MAX_FREE) this.#free.push(buffer);
  }
}

/** A larger buffer holding the first `used` bytes of `buffer`. */
function grown(buffer: Buffer, used: number, needed: number): Buffer {
  const next = Buffer.allocUnsafeSlow(Math.max(needed, buffer.length * 2));
  buffer.copy(next, 0, 0, used);
  return next;
}

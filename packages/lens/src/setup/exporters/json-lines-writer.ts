/**
 * A bounded, never-throwing JSON-lines writer over a Node writable stream, shared by the console
 * span, metric and log exporters.
 * @module
 */
import type { InstrumentationScope } from '@opentelemetry/core';
import { lensWarn, LENS_WARNINGS } from '../../warnings.js';
import { joinLines, LineBuffers, releasesChunksOnCallback } from './line-buffers.js';
import type { LineBatch } from './line-buffers.js';
import { processIdentity } from './process-identity.js';
import type { ProcessIdentity, RecordResource } from './process-identity.js';

/** The part of a writable stream the writer uses (`process.stdout`, a file stream, a PassThrough). */
export interface OutputStream {
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
  on(event: 'error', listener: (err: Error) => void): unknown;
}

/** A batch on its way to the stream (its failed lines already counted). */
type Chunk = Omit<LineBatch, 'failed'>;

const NOTHING = (): void => undefined;

/** What {@link JsonLinesWriter} needs of a stream to write bytes to it (only file and socket streams get bytes). */
interface ByteStream {
  write(chunk: Buffer, callback: () => void): boolean;
}

/** Options of {@link JsonLinesWriter}. */
export interface JsonLinesWriterOptions {
  /** Records held while the stream is backed up; beyond this they are dropped and counted. Default 100 000. */
  maxBufferedRecords?: number;
  /** The scope of the process's own spans: stated in the resource record, left out of their lines. */
  ownScope?: InstrumentationScope;
}

/**
 * Writes pre-serialised lines. While the stream reports back-pressure (`write` returned false) it
 * buffers up to `maxBufferedRecords`, then drops and counts; a stream error is warned about once and
 * every later record is dropped. It never blocks the event loop and never throws.
 */
export class JsonLinesWriter {
  readonly #stream: OutputStream;
  readonly #maxBuffered: number;
  /** Reused batch buffers, for a file or socket stream; text for any other stream. */
  readonly #buffers: LineBuffers | undefined;
  #pending: Chunk[] = [];
  #pendingRecords = 0;
  #blocked = false;
  #failed = false;
  #dropped = 0;
  #reportedDropped = 0;
  #waiters: Array<() => void> = [];
  readonly #identities = new WeakMap<RecordResource, ProcessIdentity>();
  /** The resource record the stream last got (undefined: none yet, or it may have been dropped). */
  #stated: string | undefined;
  /** The scope of the process's own spans (see {@link JsonLinesWriterOptions.ownScope}). */
  readonly ownScope: InstrumentationScope | undefined;

  constructor(stream: OutputStream, options: JsonLinesWriterOptions = {}) {
    this.#stream = stream;
    this.#maxBuffered = options.maxBufferedRecords ?? 100_000;
    this.ownScope = options.ownScope;
    this.#buffers = releasesChunksOnCallback(stream) ? new LineBuffers() : undefined;
    try {
      stream.on('error', (err) => this.#fail(err));
    } catch {
      this.#failed = true;
    }
  }

  /** Records dropped so far (back-pressure overflow or a failed stream). */
  get dropped(): number {
    return this.#dropped;
  }

  /** Counts records that could not be serialised (reported with the other drops). */
  countDropped(records: number): void {
    this.#dropped += records;
  }

  /** The resource record and line identity of `resource`'s process (serialised once per resource). */
  identityOf(resource: RecordResource): ProcessIdentity {
    let identity = this.#identities.get(resource);
    if (identity === undefined) {
      identity = processIdentity(resource, this.ownScope);
      this.#identities.set(resource, identity);
    }
    return identity;
  }

  /**
   * What goes in front of a line of `identity`'s process: its resource record and a newline when
   * the stream has not got that record last (first, after a change of resource, or after a drop),
   * else nothing. Call it with the line in hand, just before the line is written.
   */
  statement(identity: ProcessIdentity): string {
    if (identity.record === this.#stated) return '';
    this.#stated = identity.record;
    return `${identity.record}\n`;
  }

  /**
   * Writes one line per item (`toLine` makes it, without the newline); returns how many items were
   * lost: lines that could not be made (counted as dropped) and records the writer dropped.
   */
  writeItems<T>(items: readonly T[], toLine: (item: T) => string): number {
    const batch = this.#buffers === undefined ? joinLines(items, toLine) : this.#buffers.encode(items, toLine);
    this.#dropped += batch.failed;
    return batch.failed + this.#accept(batch);
  }

  /** Hands `chunk` to the stream, or holds it while the stream is backed up; returns the records dropped. */
  #accept(chunk: Chunk): number {
    const { records } = chunk;
    if (records === 0) {
      chunk.release?.();
      return 0;
    }
    if (this.#failed) {
      chunk.release?.();
      this.#dropped += records;
      return records;
    }
    if (this.#blocked) {
      if (this.#pendingRecords + records > this.#maxBuffered) {
        chunk.release?.();
        this.#dropped += records;
        // the dropped chunk may have held the resource record: the next line states it again
        this.#stated = undefined;
        return records;
      }
      this.#pending.push(detached(chunk));
      this.#pendingRecords += records;
      return 0;
    }
    const before = this.#dropped;
    this.#writeNow(chunk);
    return this.#dropped - before;
  }

  /** Resolves once everything buffered was handed to the stream (or dropped); reports new drops. */
  flush(): Promise<void> {
    const done = (): void => this.reportDrops();
    if (!this.#blocked || this.#failed) {
      done();
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(() => (done(), resolve())));
  }

  /** Emits one LENS_W010 warning with the number of records dropped since the last report. */
  reportDrops(): void {
    const delta = this.#dropped - this.#reportedDropped;
    if (delta <= 0) return;
    this.#reportedDropped = this.#dropped;
    lensWarn(
      LENS_WARNINGS.OUTPUT_DROPPED,
      `The console telemetry writer dropped ${delta} record(s) because its output stream was backed up or failed. ` + 'Write telemetry to a file or a faster consumer, or use the otlp exporter.',
    );
  }

  #writeNow(chunk: Chunk): void {
    try {
      const { data, release } = chunk;
      const accepted = typeof data === 'string' ? this.#stream.write(data) : (this.#stream as unknown as ByteStream).write(data, release ?? NOTHING);
      if (!accepted) {
        this.#blocked = true;
        this.#stream.once('drain', () => this.#drain());
      }
    } catch (err) {
      this.#dropped += chunk.records;
      this.#stated = undefined;
      this.#fail(err);
    }
  }

  #drain(): void {
    this.#blocked = false;
    while (!this.#blocked && !this.#failed && this.#pending.length > 0) {
      const next = this.#pending.shift()!;
      this.#pendingRecords -= next.records;
      this.#writeNow(next);
    }
    if (!this.#blocked) this.#release();
  }

  #fail(err: unknown): void {
    if (this.#failed) return;
    this.#failed = true;
    this.#dropped += this.#pendingRecords;
    for (const chunk of this.#pending) chunk.release?.();
    this.#pending = [];
    this.#pendingRecords = 0;
    const message = err instanceof Error ? err.message : String(err);
    lensWarn(LENS_WARNINGS.EXPORT_FAILED, `The console telemetry output stream failed (${message}); further console telemetry is dropped.`);
    this.#release();
  }

  #release(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w();
  }
}

/**
 * `chunk` as it may wait behind a backed-up stream: its bytes copied out of the reused buffer, which
 * goes back at once (a long backlog of half-empty batch buffers would hold far more memory than its
 * lines).
 */
function detached(chunk: Chunk): Chunk {
  if (chunk.release === undefined) return chunk;
  const data = Buffer.from(chunk.data as Buffer);
  chunk.release();
  return { data, records: chunk.records };
}

const writers = new WeakMap<object, JsonLinesWriter>();

/**
 * The one writer of `stream`, so spans, metrics and logs on one stream share buffering, counts and
 * the resource record. `ownScope` is taken from the first caller (every exporter of a setup passes the same).
 */
export function writerFor(stream: OutputStream, ownScope?: InstrumentationScope): JsonLinesWriter {
  let writer = writers.get(stream);
  if (writer === undefined) {
    writer = new JsonLinesWriter(stream, ownScope === undefined ? {} : { ownScope });
    writers.set(stream, writer);
  }
  return writer;
}

/**
 * A bounded, never-throwing JSON-lines writer over a Node writable stream, shared by the console
 * span, metric and log exporters.
 * @module
 */
import type { InstrumentationScope } from '@opentelemetry/core';
import { lensWarn, LENS_WARNINGS } from '../../warnings.js';
import { appendLines, LineBuffers, releasesChunksOnCallback, TextLines } from './line-buffers.js';
import type { LineBatch, OpenLines } from './line-buffers.js';
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

/** When lines appended one at a time go to the stream: at this many, or this many bytes, or after this delay. */
export interface AppendedLineBatching {
  maxLines: number;
  maxBytes: number;
  delayMs: number;
}

/** What an appended line's process hears of each batch of appended lines: how many were written and lost. */
export type AppendedOutcome = (written: number, lost: number) => void;

const DEFAULT_BATCHING: AppendedLineBatching = { maxLines: 256, maxBytes: 256 * 1024, delayMs: 100 };

/**
 * Writes pre-serialised lines. While the stream reports back-pressure (`write` returned false) it
 * buffers up to `maxBufferedRecords`, then drops and counts; a stream error is warned about once and
 * every later record is dropped. It never blocks the event loop and never throws.
 */
export class JsonLinesWriter {
  readonly #stream: OutputStream;
  readonly #maxBuffered: number;
  /** The lines not yet handed to the stream: in reused buffers for a file or socket stream, else text. */
  readonly #lines: OpenLines;
  /** Of those, the lines appended one at a time (see {@link append}). */
  #appended = 0;
  #batching = DEFAULT_BATCHING;
  #appendedOutcome: AppendedOutcome | undefined;
  #timer: NodeJS.Timeout | undefined;
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
    this.#lines = releasesChunksOnCallback(stream) ? new LineBuffers() : new TextLines();
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
    // after the lines appended before them (which may hold the resource record they follow)
    const failed = appendLines(this.#lines, items, toLine);
    this.#dropped += failed;
    return failed + this.#writeOpen();
  }

  /**
   * Appends one line (without its newline) to the lines not yet written, encoded now: the record of
   * a span that just ended, so nothing holds the span until a batch is exported. The lines go to
   * the stream as one chunk at `batching.maxLines` lines or `maxBytes` bytes, after `delayMs`, or
   * with the next {@link writeItems} or {@link flush}; what each chunk wrote and lost of them goes
   * to the `outcome` given to {@link batchAppendedLines}.
   */
  append(line: string): void {
    const lines = this.#lines;
    lines.append(line);
    this.#appended++;
    const { maxLines, maxBytes, delayMs } = this.#batching;
    if (lines.records >= maxLines || lines.size >= maxBytes) this.#writeOpen();
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#writeOpen();
      }, delayMs);
      this.#timer.unref();
    }
  }

  /** Sets how appended lines are batched, and who hears what each batch wrote and lost. */
  batchAppendedLines(batching: Partial<AppendedLineBatching>, outcome: AppendedOutcome): void {
    this.#batching = { ...DEFAULT_BATCHING, ...batching };
    this.#appendedOutcome = outcome;
  }

  /** Hands the lines not yet written to the stream; returns how many of those not appended one at a time were dropped. */
  #writeOpen(): number {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#lines.records === 0) return 0;
    const appended = this.#appended;
    this.#appended = 0;
    // a chunk is written or dropped whole, so what was lost of it splits exactly
    const lost = this.#accept(this.#lines.take());
    const appendedLost = lost === 0 ? 0 : appended;
    if (appended > 0) this.#appendedOutcome?.(appended - appendedLost, appendedLost);
    return lost - appendedLost;
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
    this.#writeOpen();
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

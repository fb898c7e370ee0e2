/**
 * Texts made in one order and written out in another, without holding them: each is appended to
 * a temporary file as it comes, with its sort keys (integers) on a line of a second file; DuckDB
 * sorts the keys — narrow rows, which it spills when they outgrow its memory — and the texts are
 * read back by their offsets in that order.
 * @module
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlString } from '../store/duck.js';

/** Bytes gathered before a write to the files. */
const WRITE_BYTES = 1 << 20;

/** One spool: texts with their keys, in files of the directory given. */
export class SortedSpool {
  readonly #texts: string;
  readonly #keys: string;
  readonly #columns: readonly string[];
  #textFd: number;
  #keyFd: number;
  #offset = 0;
  #pendingTexts: string[] = [];
  #pendingKeys: string[] = [];
  #pendingBytes = 0;
  #count = 0;

  /** `columns`: the names of the keys (BIGINT columns of {@link table}). */
  constructor(dir: string, name: string, columns: readonly string[]) {
    this.#texts = join(dir, `${name}.txt`);
    this.#keys = join(dir, `${name}.csv`);
    this.#columns = columns;
    this.#textFd = openSync(this.#texts, 'w+');
    this.#keyFd = openSync(this.#keys, 'w');
  }

  /** How many texts were added. */
  get count(): number {
    return this.#count;
  }

  /** Adds `text` with `keys` (one per column). */
  add(keys: ReadonlyArray<bigint | number>, text: string): void {
    const bytes = Buffer.byteLength(text);
    const key = `${keys.join(',')},${this.#offset},${bytes}\n`;
    this.#pendingTexts.push(text);
    this.#pendingKeys.push(key);
    this.#offset += bytes;
    // the keys count too: a spool of keys alone (empty texts) held every key of a 20M-span run
    this.#pendingBytes += bytes + key.length;
    this.#count++;
    if (this.#pendingBytes >= WRITE_BYTES) this.flush();
  }

  /** Writes what was added to the files; {@link table} reads them. */
  flush(): void {
    if (this.#pendingTexts.length === 0) return;
    writeSync(this.#textFd, this.#pendingTexts.join(''));
    writeSync(this.#keyFd, this.#pendingKeys.join(''));
    this.#pendingTexts = [];
    this.#pendingKeys = [];
    this.#pendingBytes = 0;
  }

  /** The keys as a table for DuckDB: the key columns, then `off` and `len` of each text. */
  table(): string {
    this.flush();
    const columns = [...this.#columns, 'off', 'len'].map((c) => `${sqlString(c)}: 'BIGINT'`).join(', ');
    return `read_csv(${sqlString(this.#keys)}, header = false, auto_detect = false, columns = {${columns}})`;
  }

  /**
   * The texts in the order of `query`'s rows, whose first two columns are `off` and `len` (of
   * {@link table}); none when nothing was added (an empty key file is no table).
   */
  async *texts(c: DuckDBConnection, query: string): AsyncGenerator<string> {
    if (this.#count === 0) return;
    this.flush();
    const result = await c.stream(query);
    const buffer = { bytes: Buffer.alloc(64 * 1024) };
    for await (const rows of result.yieldRows())
      for (const [off, len] of rows) {
        const n = Number(len);
        if (buffer.bytes.length < n) buffer.bytes = Buffer.alloc(n);
        const read = n === 0 ? 0 : readSync(this.#textFd, buffer.bytes, 0, n, Number(off));
        if (read !== n) throw new Error(`the spool ${this.#texts} gave back ${read} of ${n} bytes`);
        yield buffer.bytes.toString('utf8', 0, n);
      }
  }

  /** Closes the files (the caller removes the directory). */
  close(): void {
    if (this.#textFd < 0) return;
    closeSync(this.#textFd);
    closeSync(this.#keyFd);
    this.#textFd = this.#keyFd = -1;
  }
}

/**
 * Appends console records to one JSON-lines file per service: `<dir>/<service.name>.jsonl`, with
 * `/` (and anything else unsafe in a file name) replaced by `_`.
 * @module
 */
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceRecord } from './otlp-shape.js';

/**
 * The file name for a service: `nemo-gym/simple_agent` → `nemo-gym_simple_agent.jsonl`. Characters
 * outside `[A-Za-z0-9._-]` become `_` and a leading dot is prefixed with `_`, so a hostile
 * `service.name` (`../../etc/x`) cannot leave the output directory.
 */
export function serviceFileName(service: string): string {
  const safe = service
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\./, '_.')
    .slice(0, 200);
  return `${safe === '' ? 'unknown_service' : safe}.jsonl`;
}

/**
 * Per-service append streams under one directory. A write resolves once its data is handed to the
 * OS (the stream's write callback), so an export is acknowledged only after it is stored, and a
 * slow disk slows the exporters down instead of growing a buffer here.
 */
export class ServiceFiles {
  readonly #dir: string;
  readonly #streams = new Map<string, WriteStream>();
  /** File name by service name: every record asks. */
  readonly #fileNames = new Map<string, string>();
  #error: Error | null = null;
  #closing: Promise<void> | null = null;
  #ready: Promise<void>;

  /** Creates `dir` (recursively) before the first write. */
  constructor(dir: string) {
    this.#dir = dir;
    this.#ready = mkdir(dir, { recursive: true }).then(() => undefined);
  }

  /** Files written so far, by file name. */
  get files(): string[] {
    return [...this.#streams.keys()];
  }

  /** Appends the records' lines. Rejects after a write error or `close()`. */
  async write(records: readonly ServiceRecord[]): Promise<void> {
    await this.#ready;
    if (this.#error !== null) throw this.#error;
    if (this.#closing !== null) throw new Error('the receiver is shutting down');
    const byFile = new Map<string, string>();
    for (const r of records) {
      const file = this.#fileName(r.service);
      byFile.set(file, `${byFile.get(file) ?? ''}${r.line}\n`);
    }
    const waits: Array<Promise<void>> = [];
    for (const [file, text] of byFile) {
      const stream = this.#stream(file);
      waits.push(new Promise((resolve, reject) => void stream.write(text, (err) => (err == null ? resolve() : reject(err)))));
    }
    await Promise.all(waits);
  }

  /** Ends every stream and waits until the data is on disk (flushed to the OS). Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#ready.then(() =>
      Promise.all([...this.#streams.values()].map((s) => (s.closed ? Promise.resolve() : new Promise<void>((resolve) => s.end(() => resolve()))))).then(() => undefined),
    );
    return this.#closing;
  }

  #fileName(service: string): string {
    let name = this.#fileNames.get(service);
    if (name === undefined) {
      name = serviceFileName(service);
      // services come from the senders: a hostile stream of names must not grow this without bound
      if (this.#fileNames.size >= 1024) this.#fileNames.clear();
      this.#fileNames.set(service, name);
    }
    return name;
  }

  #stream(file: string): WriteStream {
    let s = this.#streams.get(file);
    if (s === undefined) {
      s = createWriteStream(join(this.#dir, file), { flags: 'a' });
      s.on('error', (err) => void (this.#error ??= err));
      this.#streams.set(file, s);
    }
    return s;
  }
}

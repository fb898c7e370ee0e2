// The floor's tracer: the least a tracer can do for gym's spans. Ids come from a pooled random
// buffer, the parent travels in a W3C `traceparent` header, each ended span becomes one line
// (floor-record.ts) and lines go out in batches of 512 (or every 100 ms) to one stream per process.
import { randomFillSync } from 'node:crypto';
import type { Writable } from 'node:stream';
import { floorIdentityTail, floorResourceRecord, floorSpanLine } from './floor-record.js';
import type { FloorIdentity, FloorSpan } from './floor-record.js';

const BATCH_LINES = 512;
const FLUSH_EVERY_MS = 100;

const idPool = Buffer.allocUnsafe(8192);
let idOffset = idPool.length;

/** `bytes` random bytes as hex, from a pool refilled 8 KB at a time. */
export function randomHex(bytes: number): string {
  if (idOffset + bytes > idPool.length) {
    randomFillSync(idPool);
    idOffset = 0;
  }
  const text = idPool.toString('hex', idOffset, idOffset + bytes);
  idOffset += bytes;
  return text;
}

/** Where a span sits in its trace: what `traceparent` carries. */
export interface FloorContext {
  traceId: string;
  spanId: string;
}

/** The context of a `traceparent` header (`00-<trace id>-<span id>-<flags>`), or undefined. */
export function extractTraceparent(header: string | string[] | undefined): FloorContext | undefined {
  if (typeof header !== 'string' || header.length !== 55 || header[2] !== '-' || header[35] !== '-' || header[52] !== '-') return undefined;
  return { traceId: header.slice(3, 35), spanId: header.slice(36, 52) };
}

export function injectTraceparent(context: FloorContext): string {
  return `00-${context.traceId}-${context.spanId}-01`;
}

const now = () => performance.timeOrigin + performance.now();

/** A started span; the tracer's {@link FloorTracer.end} writes it. */
export type OpenFloorSpan = Omit<FloorSpan, 'endMs' | 'error' | 'attributes'>;

export class FloorTracer {
  readonly #out: Writable;
  readonly #tail: string;
  #lines: string[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(out: Writable, identity: FloorIdentity, resourceAttributes: Readonly<Record<string, string | number>>) {
    this.#out = out;
    this.#tail = floorIdentityTail(identity);
    out.write(`${floorResourceRecord(identity, resourceAttributes)}\n`);
    this.#timer = setInterval(() => this.flush(), FLUSH_EVERY_MS).unref();
  }

  start(name: string, kind: FloorSpan['kind'], parent: FloorContext | undefined): OpenFloorSpan {
    return { traceId: parent?.traceId ?? randomHex(16), spanId: randomHex(8), parentSpanId: parent?.spanId, name, kind, startMs: now() };
  }

  /** Ends `span` now with `attributes` (a JSON object's text). */
  end(span: OpenFloorSpan, attributes: string, error?: string): void {
    this.#lines.push(floorSpanLine({ ...span, endMs: now(), error, attributes }, this.#tail));
    if (this.#lines.length >= BATCH_LINES) this.flush();
  }

  flush(): void {
    if (this.#lines.length === 0) return;
    this.#out.write(`${this.#lines.join('\n')}\n`);
    this.#lines = [];
  }

  /** Writes what is left and ends the stream. */
  close(): Promise<void> {
    clearInterval(this.#timer);
    this.flush();
    return new Promise((resolve) => this.#out.end(resolve));
  }
}

/**
 * A byte scan of the range of a file about to be converted: where its last whole line ends (a last
 * line still being written waits for the next command), how many lines it holds, and whether
 * DuckDB's `read_json` can read it exactly as the JavaScript reader would — every line one compact
 * JSON object, no OTLP requests — with counts that the conversion checks against what DuckDB found:
 * the `"span_id"` keys (a span under another key, as in the Python SDK's shape, is caught there),
 * and the lines that open as our span record (`{"type":"span",`) with the sum of their numbers (a
 * line DuckDB numbered otherwise is caught there). Optionally copies the range to a file of its
 * own for DuckDB to read, and the other lines — metric, log and resource records, log text: a few
 * per cent of a run — each wrapped with its line number (`{"seq":n,"r":<line>}`) into a side file,
 * so that DuckDB reads the spans in one pass over the range and only the side file again.
 * @module
 */
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

/** What {@link scanRange} found. */
export interface RangeScan {
  /** End of the last whole line (just after its `\n`); equals `from` when there is none. */
  to: number;
  lines: number;
  /** Every line opens with `{"`, closes with `}`, and none is an OTLP request. */
  compactObjects: boolean;
  /** Occurrences of `"span_id"` in the range. */
  spanIdKeys: number;
  /** Lines opening with `{"type":"span",`, and the sum of their numbers (1-based in the range). */
  spanLines: number;
  spanLineSum: number;
}

/** Where {@link scanRange} writes, and when it stops. */
export interface ScanOutputs {
  /** A copy of the range's whole lines. */
  copyTo?: string;
  /** Every line that does not open as a span record, wrapped with its number. */
  sideTo?: string;
  /** Checked between buffers: true stops the scan (an interrupted command). */
  stopped?: () => boolean;
}

/** Thrown by {@link scanRange} when `stopped` says so. */
export class ScanStopped extends Error {}

const BUFFER_BYTES = 4 * 1024 * 1024;
const SPAN_ID = Buffer.from('"span_id"');
const RESOURCE_SPANS = Buffer.from('"resourceSpans"');
const SPAN_PREFIX = Buffer.from('{"type":"span",');
const WRAP_END = Buffer.from('}\n');
const NL = 10;
const CR = 13;

/**
 * Scans `[from, size)` of `path` (`size` as stat saw it: bytes appended since are left for later).
 */
export async function scanRange(path: string, from: number, size: number, outputs: ScanOutputs = {}): Promise<RangeScan> {
  const file = await open(path, 'r');
  const copy = outputs.copyTo === undefined ? null : await open(outputs.copyTo, 'w');
  const side = outputs.sideTo === undefined ? null : await open(outputs.sideTo, 'w');
  try {
    return await scan(file, from, size, copy, side, outputs.stopped);
  } finally {
    await file.close();
    await copy?.close();
    await side?.close();
  }
}

async function scan(file: FileHandle, from: number, size: number, copy: FileHandle | null, side: FileHandle | null, stopped?: () => boolean): Promise<RangeScan> {
  let buf = Buffer.allocUnsafe(BUFFER_BYTES);
  let sideBuf: Buffer = Buffer.allocUnsafe(side === null ? 0 : BUFFER_BYTES);
  // every read starts at a line's start and only its whole lines are looked at, so no line and no
  // key is ever cut by a buffer boundary; a line longer than the buffer doubles it
  let pos = from;
  const found: RangeScan = { to: from, lines: 0, compactObjects: true, spanIdKeys: 0, spanLines: 0, spanLineSum: 0 };
  while (pos < size) {
    if (stopped?.() === true) throw new ScanStopped('the scan was stopped');
    const { bytesRead } = await file.read(buf, 0, Math.min(buf.length, size - pos), pos);
    if (bytesRead === 0) break;
    const chunk = buf.subarray(0, bytesRead);
    const whole = chunk.lastIndexOf(NL) + 1;
    if (whole === 0) {
      if (pos + bytesRead >= size) break; // the unfinished last line
      buf = Buffer.allocUnsafe(buf.length * 2);
      continue;
    }
    const region = chunk.subarray(0, whole);
    found.spanIdKeys += countSpanIdKeys(region);
    if (found.compactObjects && holdsResourceSpans(region)) found.compactObjects = false;
    // the side lines go into one reused buffer: an allocation per line cost more in garbage
    // collection than the copying
    let sideBytes = 0;
    for (let at = 0; at < whole;) {
      const nl = region.indexOf(NL, at);
      const line = ++found.lines;
      if (found.compactObjects && !isCompactObject(region, at, nl)) found.compactObjects = false;
      if (opensAsSpan(region, at, nl)) {
        found.spanLines++;
        found.spanLineSum += line;
      } else if (side !== null && found.compactObjects) {
        const head = `{"seq":${line},"r":`;
        const need = sideBytes + head.length + (nl - at) + WRAP_END.length;
        if (need > sideBuf.length) sideBuf = grown(sideBuf, sideBytes, need);
        sideBytes += sideBuf.write(head, sideBytes, 'latin1');
        sideBytes += region.copy(sideBuf, sideBytes, at, nl);
        sideBuf[sideBytes++] = WRAP_END[0]!;
        sideBuf[sideBytes++] = WRAP_END[1]!;
      }
      at = nl + 1;
    }
    if (copy !== null) await copy.write(region, 0, whole);
    if (sideBytes > 0) await side!.write(sideBuf, 0, sideBytes);
    pos += whole;
  }
  found.to = pos;
  return found;
}

// `{"` … `}` (before an optional `\r`)
function isCompactObject(b: Buffer, start: number, nl: number): boolean {
  const end = nl > start && b[nl - 1] === CR ? nl - 1 : nl;
  return end - start >= 2 && b[start] === 0x7b && b[start + 1] === 0x22 && b[end - 1] === 0x7d;
}

/** Whether the line `[start, end)` opens with {@link SPAN_PREFIX} (compared here: a call into `Buffer.compare` per line cost more). */
function opensAsSpan(b: Buffer, start: number, end: number): boolean {
  if (end - start < SPAN_PREFIX.length) return false;
  for (let i = 0; i < SPAN_PREFIX.length; i++) if (b[start + i] !== SPAN_PREFIX[i]) return false;
  return true;
}

/** A buffer of at least `need` bytes holding the first `used` bytes of `b`. */
function grown(b: Buffer, used: number, need: number): Buffer {
  const next = Buffer.allocUnsafe(Math.max(need, b.length * 2));
  b.copy(next, 0, 0, used);
  return next;
}

// Where `"resourceSpans"` would have its capital S: a console record has few capitals, and looking
// for one byte is several times cheaper than looking for the whole key (a sixth of the CPU on a
// generated run). Text with more of them is searched for the key instead.
const S_AT = RESOURCE_SPANS.indexOf('S');
const S = RESOURCE_SPANS[S_AT]!;

/** Whether `region` holds `"resourceSpans"`. */
function holdsResourceSpans(region: Buffer): boolean {
  const enough = region.length >> 6;
  let seen = 0;
  for (let i = region.indexOf(S, S_AT); i >= 0; i = region.indexOf(S, i + 1)) {
    const at = i - S_AT;
    if (region[at] === 0x22 && at + RESOURCE_SPANS.length <= region.length && region.compare(RESOURCE_SPANS, 0, RESOURCE_SPANS.length, at, at + RESOURCE_SPANS.length) === 0) return true;
    if (++seen > enough) return region.indexOf(RESOURCE_SPANS, at + 1) >= 0;
  }
  return false;
}

// `"span_id"` is found by its `pan_id"`: `indexOf` looks for a needle's first byte and compares
// from there, and `"` is the commonest byte of JSON (it stopped about five times as often as `p`
// does on a generated run, for twice the CPU). Counted without overlap, as a plain search would.
const PAN_ID = SPAN_ID.subarray(2);

/** Occurrences of `"span_id"` in `region`, none overlapping another. */
function countSpanIdKeys(region: Buffer): number {
  let n = 0;
  let free = 0;
  for (let i = region.indexOf(PAN_ID); i >= 0; i = region.indexOf(PAN_ID, i + 1)) {
    const at = i - 2;
    if (at >= free && region[at] === SPAN_ID[0] && region[at + 1] === SPAN_ID[1]) {
      n++;
      free = at + SPAN_ID.length;
    }
  }
  return n;
}

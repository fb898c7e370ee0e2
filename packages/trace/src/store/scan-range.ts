/**
 * A byte scan of the range of a file about to be converted: where its last whole line ends (a last
 * line still being written waits for the next command), how many lines it holds, and whether
 * DuckDB's `read_json` can read it exactly as the JavaScript reader would — every line one compact
 * JSON object, no OTLP requests — with a count of `"span_id"` keys that the conversion checks
 * against what DuckDB found (a span under another key, as in the Python SDK's shape, is caught
 * there). Optionally copies the range to a file of its own for DuckDB to read.
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
}

const BUFFER_BYTES = 4 * 1024 * 1024;
const SPAN_ID = Buffer.from('"span_id"');
const RESOURCE_SPANS = Buffer.from('"resourceSpans"');
const NL = 10;
const CR = 13;

/**
 * Scans `[from, size)` of `path` (`size` as stat saw it: bytes appended since are left for later).
 * With `copyTo`, writes the whole lines of the range to that file.
 */
export async function scanRange(path: string, from: number, size: number, copyTo?: string): Promise<RangeScan> {
  const file = await open(path, 'r');
  const copy = copyTo === undefined ? null : await open(copyTo, 'w');
  try {
    return await scan(file, from, size, copy);
  } finally {
    await file.close();
    await copy?.close();
  }
}

async function scan(file: FileHandle, from: number, size: number, copy: FileHandle | null): Promise<RangeScan> {
  let buf = Buffer.allocUnsafe(BUFFER_BYTES);
  // every read starts at a line's start and only its whole lines are looked at, so no line and no
  // key is ever cut by a buffer boundary; a line longer than the buffer doubles it
  let pos = from;
  let lines = 0;
  let compact = true;
  let spanIdKeys = 0;
  while (pos < size) {
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
    spanIdKeys += count(region, SPAN_ID);
    if (compact && region.indexOf(RESOURCE_SPANS) >= 0) compact = false;
    for (let at = 0; at < whole;) {
      const nl = region.indexOf(NL, at);
      lines++;
      if (compact && !isCompactObject(region, at, nl)) compact = false;
      at = nl + 1;
    }
    if (copy !== null) await copy.write(region, 0, whole);
    pos += whole;
  }
  return { to: pos, lines, compactObjects: compact, spanIdKeys };
}

// `{"` … `}` (before an optional `\r`)
function isCompactObject(b: Buffer, start: number, nl: number): boolean {
  const end = nl > start && b[nl - 1] === CR ? nl - 1 : nl;
  return end - start >= 2 && b[start] === 0x7b && b[start + 1] === 0x22 && b[end - 1] === 0x7d;
}

function count(haystack: Buffer, needle: Buffer): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * Splits a stream of text lines into JSON objects. Compact one-line objects take a fast path
 * (one `JSON.parse`); pretty-printed objects (the Python SDK's `to_json()` default) are gathered
 * by a brace-depth scan until balanced. Everything else is reported as skipped, never thrown.
 * @module
 */

/** Largest multi-line record gathered before it is given up as malformed (bounds memory). */
export const MAX_RECORD_CHARS = 32 * 1024 * 1024;

/** Receives what the scanner finds. `line` is the 1-based number of the record's first line. */
export interface ScanSink {
  record(obj: Record<string, unknown>, line: number): void;
  /** A line that is not JSON (log text, blank) or is JSON but not an object. */
  skipped(line: number): void;
  malformed(line: number, reason: string): void;
  /**
   * Optional cheap test on the text of a one-line object before it is parsed: false means the line
   * cannot be a record the caller wants, and it is counted as skipped without `JSON.parse`.
   */
  mayBeRecord?(text: string): boolean;
}

/** Incremental scanner: call {@link RecordScanner.push} per line, then {@link RecordScanner.end}. */
export class RecordScanner {
  #sink: ScanSink;
  #buf: string[] = [];
  #bufChars = 0;
  #bufStart = 0;
  #depth = 0;

  constructor(sink: ScanSink) {
    this.#sink = sink;
  }

  /** Feeds one line (without its newline). */
  push(line: string, lineNo: number): void {
    if (this.#depth > 0) {
      // Continuation lines of pretty-printed JSON are indented or close a bracket; a line at
      // column 0 that does neither means the object was cut off (e.g. a crash mid-write).
      const c = line.charCodeAt(0);
      const continues = c === 32 || c === 9 || c === 125 /* } */ || c === 93; /* ] */
      if (continues) {
        this.#append(line);
        return;
      }
      this.#sink.malformed(this.#bufStart, 'unterminated JSON object');
      this.#reset();
    }
    this.#fresh(line, lineNo);
  }

  /** True while a multi-line object is being gathered: the next line belongs to it. */
  get inRecord(): boolean {
    return this.#depth > 0;
  }

  /** Flushes an unterminated trailing object as malformed. */
  end(): void {
    if (this.#depth > 0) this.#sink.malformed(this.#bufStart, 'unterminated JSON object at end of file');
    this.#reset();
  }

  #fresh(line: string, lineNo: number): void {
    const start = firstNonSpace(line);
    if (start < 0) return this.#sink.skipped(lineNo);
    if (line.charCodeAt(start) !== 123 /* { */) {
      // A prefixed record (`[agent] {"type":"span",…}`) is accepted when it parses on its own line.
      const at = line.indexOf('{"', start);
      if (at < 0) return this.#sink.skipped(lineNo);
      const rest = line.slice(at);
      if (this.#sink.mayBeRecord?.(rest) === false) return this.#sink.skipped(lineNo);
      const obj = tryParse(rest);
      if (obj !== undefined && isObject(obj)) this.#sink.record(obj, lineNo);
      else this.#sink.skipped(lineNo);
      return;
    }
    const text = start === 0 ? line : line.slice(start);
    if (text.charCodeAt(text.length - 1) === 125 /* } */ || text.trimEnd().endsWith('}')) {
      if (this.#sink.mayBeRecord?.(text) === false) return this.#sink.skipped(lineNo);
      const obj = tryParse(text);
      if (obj !== undefined) {
        if (isObject(obj)) this.#sink.record(obj, lineNo);
        else this.#sink.skipped(lineNo);
        return;
      }
    }
    const depth = scanDepth(text);
    if (depth <= 0) return this.#sink.malformed(lineNo, 'invalid JSON');
    this.#bufStart = lineNo;
    this.#depth = depth;
    this.#buf.push(text);
    this.#bufChars = text.length;
  }

  #append(line: string): void {
    this.#buf.push(line);
    this.#bufChars += line.length;
    this.#depth += scanDepth(line);
    if (this.#bufChars > MAX_RECORD_CHARS) {
      this.#sink.malformed(this.#bufStart, `record longer than ${MAX_RECORD_CHARS} characters`);
      this.#reset();
      return;
    }
    if (this.#depth > 0) return;
    const obj = tryParse(this.#buf.join('\n'));
    if (obj !== undefined && isObject(obj)) this.#sink.record(obj, this.#bufStart);
    else this.#sink.malformed(this.#bufStart, 'invalid multi-line JSON');
    this.#reset();
  }

  #reset(): void {
    this.#buf = [];
    this.#bufChars = 0;
    this.#depth = 0;
  }
}

/** Net bracket depth change of one line, ignoring brackets inside strings. */
function scanDepth(s: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
  }
  return depth;
}

function firstNonSpace(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return i;
  }
  return -1;
}

function tryParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

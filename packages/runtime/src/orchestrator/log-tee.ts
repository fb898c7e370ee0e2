/**
 * Tees a child process's output: every byte, raw, into `<log dir>/<instance>.log`, and on the
 * terminal each line prefixed with `(<instance>) ` as the original does, pino JSON records shortened
 * to their message unless `rawJson`. The file gets whole lines
 * only, so stdout and stderr never interleave mid-line and `grep | jq` recipes keep working.
 * Telemetry records are the bulk of the output under load, so chunks are handled as buffers and
 * written once each; only lines shown on the terminal are decoded. Reading is linear in the
 * output: an unfinished line is kept as its chunks and joined once, and a line longer than
 * {@link MAX_LINE_BYTES} goes to the file as it comes (it may then interleave with the other
 * stream) with only its head on the terminal. A `\r` ends a line too (progress bars redraw with
 * it): of several redraws in one chunk the terminal shows the last.
 * @module
 */
import { createWriteStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { scrubBytes } from '@gym/server/internal/config/secret-scrub.js';
import { readableLogLine } from './readable-log-line.js';

/** Options of {@link teeChildOutput}. */
export interface TeeOptions {
  /** Instance name, the terminal prefix. */
  name: string;
  /** The log file, appended to. */
  logPath: string;
  /** Where prefixed stdout lines go; `null` shows nothing. Default `process.stdout`. */
  terminal?: Writable | null;
  /** Where prefixed stderr lines go. Default `process.stderr`. */
  terminalErr?: Writable | null;
  /** Also echo console telemetry records (`{"type":…}` lines) to the terminal. Default false. */
  echoTelemetry?: boolean;
  /** Show the servers' pino log records as the JSON they are (`--verbose`). Default false: their message. */
  rawJson?: boolean;
}

/** A running tee. `close()` resolves once the log file is flushed. */
export interface Tee {
  /** The last lines seen (both streams), for an error report when the child dies early. */
  tail(): string[];
  /** Resolves once both pipes closed (every process holding them ended) and the log file is flushed. */
  close(): Promise<void>;
  /**
   * Stops reading now, whoever still holds the pipes (a descendant that escaped the server's
   * stop), keeps what was read, and resolves once the log file is flushed.
   */
  abandon(): Promise<void>;
}

/** The longest unfinished line kept whole; a longer one is written to the file as it comes. */
export const MAX_LINE_BYTES = 64 * 1024;
/** How much of a line longer than {@link MAX_LINE_BYTES} the terminal shows. */
const SHOWN_OF_LONG_LINE = 512;
const NEWLINE = 0x0a;
const RETURN = 0x0d;
const NEWLINE_BYTES = Buffer.from('\n');
const TAIL_BYTES = 8 * 1024;
const TAIL_LINES = 40;
const TELEMETRY_PREFIX = Buffer.from('{"type":"');

/** The index of the last `\n` or `\r` of `chunk`, -1 when it has none. */
function lastLineEnd(chunk: Buffer): number {
  return Math.max(chunk.lastIndexOf(NEWLINE), chunk.lastIndexOf(RETURN));
}

/** The end (exclusive) of the line starting at `start`: past its `\n`, `\r` or `\r\n`. `lines` ends with one. */
function lineEnd(lines: Buffer, start: number, nextNewline: number, nextReturn: number): number {
  if (nextReturn !== -1 && (nextNewline === -1 || nextReturn < nextNewline)) return nextReturn + 1 === nextNewline ? nextNewline + 1 : nextReturn + 1;
  return nextNewline === -1 ? lines.length : nextNewline + 1;
}

function isTelemetryLine(buffer: Buffer, start: number): boolean {
  return buffer.compare(TELEMETRY_PREFIX, 0, TELEMETRY_PREFIX.length, start, Math.min(buffer.length, start + TELEMETRY_PREFIX.length)) === 0;
}

/** Starts teeing `stdout` and `stderr` of a child. */
export function teeChildOutput(stdout: Readable, stderr: Readable, options: TeeOptions): Tee {
  const file = createWriteStream(options.logPath, { flags: 'a', mode: 0o600 }); // logs may hold prompts
  file.on('error', () => undefined); // a full disk must not take the orchestrator down
  let recent = Buffer.alloc(0);
  const prefix = `(${options.name}) `;

  // a run of identical short lines (one error per in-flight rollout when an upstream dies) is shown
  // once, then counted, so it does not bury everything else; the log file keeps every line
  const repeats = new Map<Writable, { last: string; more: number }>();
  const counted = (terminal: Writable): string => {
    const seen = repeats.get(terminal);
    if (seen === undefined || seen.more === 0) return '';
    const line = `${prefix}… and ${seen.more} more line${seen.more === 1 ? '' : 's'} like the one above\n`;
    seen.more = 0;
    return line;
  };
  const echo = (lines: Buffer, terminal: Writable) => {
    let out = '';
    let seen = repeats.get(terminal);
    if (seen === undefined) repeats.set(terminal, (seen = { last: '', more: 0 }));
    // next line ends, found once each: searching from every line start would be quadratic
    let nextNewline = lines.indexOf(NEWLINE);
    let nextReturn = lines.indexOf(RETURN);
    for (let start = 0; start < lines.length;) {
      if (nextNewline !== -1 && nextNewline < start) nextNewline = lines.indexOf(NEWLINE, start);
      if (nextReturn !== -1 && nextReturn < start) nextReturn = lines.indexOf(RETURN, start);
      const end = lineEnd(lines, start, nextNewline, nextReturn);
      // a progress redraw (`\r` alone) that a later line of this chunk replaces is not shown
      const redrawn = lines[end - 1] === RETURN && end < lines.length;
      if (!redrawn && (options.echoTelemetry || !isTelemetryLine(lines, start))) {
        const line = lines.toString('utf8', start, end).replace(/\r\n?$/, '\n');
        const short = options.rawJson === true ? undefined : readableLogLine(line.trimEnd());
        if (short !== undefined && short !== '' && short === seen.last) seen.more++;
        else {
          out += counted(terminal);
          if (short === undefined) out += prefix + line;
          else if (short !== '') out += `${prefix}${short}\n`;
          if (short !== '') seen.last = short ?? '';
        }
      }
      start = end;
    }
    if (out.length > 0) terminal.write(out);
  };
  const remember = (lines: Buffer) => {
    recent = lines.length >= TAIL_BYTES ? Buffer.from(lines.subarray(-TAIL_BYTES)) : Buffer.concat([recent, lines]).subarray(-TAIL_BYTES);
  };
  const take = (raw: Buffer, terminal: Writable | null) => {
    // a Python server's output is its own: gym scrubs the configured secrets out of it here
    const lines = scrubBytes(raw);
    file.write(lines);
    remember(lines);
    if (terminal !== null) echo(lines, terminal);
  };
  const pipeLines = (source: Readable, terminal: Writable | null) => {
    // the unfinished line, as received: joined once when its end arrives, so a long line costs
    // one copy, not one per chunk (a 10 MB line without newline made the start quadratic)
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    // the current line passed MAX_LINE_BYTES: its bytes go to the file as they come
    let overlong = false;
    const cutLongLine = () => {
      const head = scrubBytes(Buffer.concat(pending));
      file.write(head);
      remember(head);
      if (terminal !== null) {
        terminal.write(`${prefix}${head.toString('utf8', 0, SHOWN_OF_LONG_LINE)}… (a line longer than ${MAX_LINE_BYTES / 1024} KiB; the log file has it whole)\n`);
      }
      pending = [];
      pendingBytes = 0;
      overlong = true;
    };
    source.on('data', (chunk: Buffer) => {
      const end = lastLineEnd(chunk);
      if (end === -1) {
        if (overlong) {
          const piece = scrubBytes(chunk);
          file.write(piece);
          remember(piece);
          return;
        }
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes > MAX_LINE_BYTES) cutLongLine();
        return;
      }
      const head = chunk.subarray(0, end + 1);
      if (overlong) {
        const piece = scrubBytes(head);
        file.write(piece);
        remember(piece);
        overlong = false;
      } else take(pending.length === 0 ? head : Buffer.concat([...pending, head]), terminal);
      pending = end + 1 < chunk.length ? [chunk.subarray(end + 1)] : [];
      pendingBytes = chunk.length - end - 1;
      if (pendingBytes > MAX_LINE_BYTES) cutLongLine();
    });
    return new Promise<void>((resolve) => {
      const finish = () => {
        if (pendingBytes > 0) take(Buffer.concat([...pending, NEWLINE_BYTES]), terminal);
        else if (overlong) file.write(NEWLINE_BYTES);
        pending = [];
        pendingBytes = 0;
        const rest = terminal === null ? '' : counted(terminal);
        if (terminal !== null && rest !== '') terminal.write(rest);
        resolve();
      };
      source.once('close', finish);
      source.once('error', () => undefined);
    });
  };
  const done = Promise.all([
    pipeLines(stdout, options.terminal === undefined ? process.stdout : options.terminal),
    pipeLines(stderr, options.terminalErr === undefined ? process.stderr : options.terminalErr),
  ]);
  let closing: Promise<void> | undefined;
  const flushed = () => new Promise<void>((resolve) => file.end(resolve));
  return {
    tail: () =>
      recent
        .toString('utf8')
        .split(/\r\n?|\n/)
        .filter((l) => l.length > 0)
        .slice(-TAIL_LINES),
    close: () => (closing ??= done.then(flushed)),
    abandon: () => {
      // destroying a pipe emits its 'close': the pending line is kept and `close()` settles too
      stdout.destroy();
      stderr.destroy();
      return (closing ??= done.then(flushed));
    },
  };
}

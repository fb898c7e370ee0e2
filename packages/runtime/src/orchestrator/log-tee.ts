/**
 * Tees a child process's output: every byte, raw, into `<log dir>/<instance>.log`, and on the
 * terminal each line prefixed with `(<instance>) ` as the original does, pino JSON records shortened
 * to their message unless `rawJson`. The file gets whole lines
 * only, so stdout and stderr never interleave mid-line and `grep | jq` recipes keep working.
 * Telemetry records are the bulk of the output under load, so chunks are handled as buffers and
 * written once each; only lines shown on the terminal are decoded.
 * @module
 */
import { createWriteStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
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
  close(): Promise<void>;
}

const NEWLINE = 0x0a;
const TAIL_BYTES = 8 * 1024;
const TAIL_LINES = 40;
const TELEMETRY_PREFIX = Buffer.from('{"type":"');

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
    for (let start = 0; start < lines.length;) {
      const end = lines.indexOf(NEWLINE, start) + 1;
      if (options.echoTelemetry || !isTelemetryLine(lines, start)) {
        const line = lines.toString('utf8', start, end);
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
  const take = (lines: Buffer, terminal: Writable | null) => {
    file.write(lines);
    recent = lines.length >= TAIL_BYTES ? Buffer.from(lines.subarray(-TAIL_BYTES)) : Buffer.concat([recent, lines]).subarray(-TAIL_BYTES);
    if (terminal !== null) echo(lines, terminal);
  };
  const pipeLines = (source: Readable, terminal: Writable | null) => {
    let partial: Buffer | undefined;
    source.on('data', (chunk: Buffer) => {
      const text = partial === undefined ? chunk : Buffer.concat([partial, chunk]);
      const end = text.lastIndexOf(NEWLINE);
      if (end === -1) {
        partial = text;
        return;
      }
      partial = end + 1 < text.length ? Buffer.from(text.subarray(end + 1)) : undefined;
      take(text.subarray(0, end + 1), terminal);
    });
    return new Promise<void>((resolve) => {
      source.on('close', () => {
        if (partial !== undefined) take(Buffer.concat([partial, Buffer.from('\n')]), terminal);
        const rest = terminal === null ? '' : counted(terminal);
        if (terminal !== null && rest !== '') terminal.write(rest);
        resolve();
      });
    });
  };
  const done = Promise.all([
    pipeLines(stdout, options.terminal === undefined ? process.stdout : options.terminal),
    pipeLines(stderr, options.terminalErr === undefined ? process.stderr : options.terminalErr),
  ]);
  let closing: Promise<void> | undefined;
  return {
    tail: () =>
      recent
        .toString('utf8')
        .split('\n')
        .filter((l) => l.length > 0)
        .slice(-TAIL_LINES),
    close: () => (closing ??= done.then(() => new Promise<void>((resolve) => file.end(resolve)))),
  };
}

/**
 * Tees a child process's output: every line, raw, into `<log dir>/<instance>.log`, and on the
 * terminal prefixed with `(<instance>) ` as the original does. Whole lines only, so stdout and
 * stderr never interleave mid-line in the file and `grep | jq` recipes keep working.
 * @module
 */
import { createWriteStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';

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
  /** Also echo console telemetry records (`{"type":"span"…}`) to the terminal. Default false. */
  echoTelemetry?: boolean;
}

/** A running tee. `close()` resolves once the log file is flushed. */
export interface Tee {
  /** The last lines seen (both streams), for an error report when the child dies early. */
  tail(): string[];
  close(): Promise<void>;
}

const TAIL_LINES = 40;
const TELEMETRY_RECORD = /^\{"type":"(span|metric|log)"/;

/** Starts teeing `stdout` and `stderr` of a child. */
export function teeChildOutput(stdout: Readable, stderr: Readable, options: TeeOptions): Tee {
  const file = createWriteStream(options.logPath, { flags: 'a' });
  file.on('error', () => undefined); // a full disk must not take the orchestrator down
  const recent: string[] = [];
  const prefix = `(${options.name}) `;
  const pipeLines = (source: Readable, terminal: Writable | null) => {
    let partial = '';
    const emit = (line: string) => {
      file.write(`${line}\n`);
      recent.push(line);
      if (recent.length > TAIL_LINES) recent.shift();
      if (terminal !== null && (options.echoTelemetry || !TELEMETRY_RECORD.test(line))) terminal.write(`${prefix}${line}\n`);
    };
    source.setEncoding('utf8');
    source.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) emit(line);
    });
    return new Promise<void>((resolve) => {
      source.on('close', () => {
        if (partial.length > 0) emit(partial);
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
    tail: () => [...recent],
    close: () =>
      (closing ??= done.then(
        () => new Promise<void>((resolve) => file.end(resolve)),
      )),
  };
}

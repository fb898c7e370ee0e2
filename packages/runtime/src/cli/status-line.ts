/**
 * A line redrawn in place at the bottom of a terminal (the rollout progress bar) that other output
 * does not run into. While it is shown, the first write to stdout or stderr — a server's log line,
 * a warning, Ctrl-C's notice — erases it first, so that text starts on a clean line; the next redraw
 * puts the status back below it. Off a terminal nothing is wrapped.
 * @module
 */

const ERASE_LINE = '\r\x1b[2K';

/** A status line on the process's stderr. */
export interface StatusLine {
  /** Whether stderr is a terminal (otherwise the caller writes whole lines, and nothing is erased). */
  readonly isTty: boolean;
  /** Writes `text` for the status line (the caller's own `\r\x1b[2K…` redraw or plain lines). */
  write(text: string): void;
  /** Stops watching the streams. Idempotent. */
  release(): void;
}

type Write = typeof process.stderr.write;

/** Starts a status line on stderr; call `release()` when the status is done. */
export function startStatusLine(): StatusLine {
  const err = process.stderr;
  if (err.isTTY !== true) return { isTty: false, write: (text) => void err.write(text), release: () => undefined };
  let shown = false;
  const restores: Array<() => void> = [];
  const writeErr = err.write.bind(err);
  // both streams, when they are terminals: stdout carries the servers' log lines
  for (const stream of [process.stdout, err]) {
    if (stream.isTTY !== true) continue;
    const own = Object.getOwnPropertyDescriptor(stream, 'write');
    const write = stream.write.bind(stream);
    stream.write = ((...args: Parameters<Write>) => {
      if (shown) {
        shown = false;
        writeErr(ERASE_LINE);
      }
      return write(...args);
    }) as Write;
    restores.push(() => (own === undefined ? delete (stream as Partial<NodeJS.WriteStream>).write : Object.defineProperty(stream, 'write', own)));
  }
  let released = false;
  return {
    isTty: true,
    write(text) {
      writeErr(text);
      // a status drawn without a newline stays on the line until something else is written
      shown = !text.endsWith('\n');
    },
    release() {
      if (released) return;
      released = true;
      for (const restore of restores) restore();
    },
  };
}

/**
 * A closed or broken stdout/stderr (`gym … | head -1`, a `tee` killed by the same Ctrl-C, an
 * orchestrator gone) must never change what a process does. Node reports EPIPE as an `error` event
 * on the stream, which unhandled would end the process mid-run; after {@link guardStdio} such a
 * stream is marked broken and further writes to it are dropped, while everything that also goes to
 * files (server logs, telemetry, results) goes on.
 * @module
 */

const broken = new WeakSet<NodeJS.WritableStream>();
let guarded = false;

/** True once `stream` failed (EPIPE or any other write error); writes to it are then dropped. */
export function isBroken(stream: NodeJS.WritableStream): boolean {
  return broken.has(stream);
}

/** Makes write errors on `process.stdout` and `process.stderr` harmless. Idempotent. */
export function guardStdio(): void {
  if (guarded) return;
  guarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', () => {
      broken.add(stream);
    });
  }
}

/** Writes `text` to `stream` unless it is broken. Never throws. */
export function safeWrite(stream: NodeJS.WritableStream, text: string): void {
  if (broken.has(stream)) return;
  try {
    stream.write(text);
  } catch {
    broken.add(stream);
  }
}

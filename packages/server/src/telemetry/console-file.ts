/**
 * Where a server's console telemetry goes when the orchestrator started it: appended straight to
 * the server's log file by an asynchronous file stream (O_APPEND, whole lines per write), next to
 * the lines the orchestrator tees from its stdout. Outside an orchestrated run it is stdout.
 * @module
 */
import { createWriteStream } from 'node:fs';
import type { WriteStream } from 'node:fs';

/** Set by the orchestrator for each server: the log file console telemetry is appended to. */
export const TELEMETRY_FILE_ENV = 'GYM_TELEMETRY_CONSOLE_FILE';

/** The file stream for console telemetry, or `undefined` to use stdout. */
export function openTelemetryFile(env: NodeJS.ProcessEnv = process.env): WriteStream | undefined {
  const path = env[TELEMETRY_FILE_ENV]?.trim();
  if (!path) return undefined;
  const stream = createWriteStream(path, { flags: 'a' });
  stream.on('error', () => undefined); // the lens writer reports the failure once and drops
  return stream;
}

/** Ends the stream once everything written has reached the file. */
export function closeTelemetryFile(stream: WriteStream | undefined): Promise<void> {
  return stream === undefined ? Promise.resolve() : new Promise((resolve) => stream.end(resolve));
}

/**
 * `gym trace receive`: runs the embedded OTLP receiver until SIGINT/SIGTERM (or `signal`), printing
 * where it listens and a line per `progressEvery` spans, then flushes the files.
 * @module
 */
import { resolve } from 'node:path';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { DEFAULT_CLOSE_GRACE_MS, startOtlpReceiver } from '../receive/receiver.js';
import type { ReceiverCounts } from '../receive/ingest.js';
import { counted } from '../render/format.js';
import { runCommand } from './output.js';
import type { CommandOutput } from './output.js';

/** Options of {@link receive}. */
export interface ReceiveOptions {
  /** Directory for `<service.name>.jsonl` files. */
  out: string;
  /** Default `127.0.0.1`. */
  host?: string;
  /** Default 4317; 0 = any free port; null = no gRPC. */
  grpcPort?: number | null;
  /** Default 4318; 0 = any free port; null = no HTTP. */
  httpPort?: number | null;
  /** Print a line every this many spans. Default 1000. */
  progressEvery?: number;
  /** Largest request body or gRPC message in bytes. Default 16 MiB. */
  maxBodyBytes?: number;
  /** Stops the receiver when aborted (for tests and embedding); SIGINT/SIGTERM always do. */
  signal?: AbortSignal;
}

/** Runs `receive`; resolves with the exit code (0 after a clean stop, 2 for bad options). */
export async function receive(options: ReceiveOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    const every = options.progressEvery ?? 1000;
    if (!Number.isInteger(every) || every < 1) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--every takes a positive integer, got ${options.progressEvery}.`);
    const dir = resolve(options.out);
    let nextReport = every;
    const rx = await startOtlpReceiver({
      outDir: dir,
      ...(options.host === undefined ? {} : { host: options.host }),
      ...(options.grpcPort === undefined ? {} : { grpcPort: options.grpcPort }),
      ...(options.httpPort === undefined ? {} : { httpPort: options.httpPort }),
      ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
      onExport: (e) => {
        if (e.rejected > 0) out.error(`warning: ${e.rejected} span${e.rejected === 1 ? '' : 's'} with invalid ids dropped (${e.transport})\n`);
        if (e.counts.spans < nextReport) return;
        nextReport = (Math.floor(e.counts.spans / every) + 1) * every;
        out.write(`received ${describe(e.counts)}\n`);
      },
    });
    const host = options.host ?? '127.0.0.1';
    const listening = [
      rx.grpcPort === null ? null : `gRPC on ${host}:${rx.grpcPort}`,
      rx.httpPort === null ? null : `HTTP on http://${host}:${rx.httpPort} (/v1/traces, /v1/metrics, /v1/logs)`,
    ].filter((s) => s !== null);
    out.write(`OTLP receiver: ${listening.join(', ')}; writing ${dir}/<service.name>.jsonl. Ctrl-C stops.\n`);
    await untilStopped(options.signal);
    // A second signal cuts the connections still open; the files are flushed and the totals printed all the same.
    const stopNow = (): void => rx.cutConnections();
    process.on('SIGINT', stopNow);
    process.on('SIGTERM', stopNow);
    out.write(`stopping: in-flight exports have ${DEFAULT_CLOSE_GRACE_MS / 1000} s to finish (Ctrl-C again to stop now)\n`);
    try {
      await rx.close();
    } finally {
      process.off('SIGINT', stopNow);
      process.off('SIGTERM', stopNow);
    }
    out.write(`stopped; received ${describe(rx.counts())}\n`);
    return 0;
  });
}

function describe(c: Readonly<ReceiverCounts>): string {
  return `${counted(c.spans, 'span')}, ${counted(c.metrics, 'metric')}, ${counted(c.logs, 'log record')} in ${counted(c.requests, 'request')}`;
}

function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((done) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      done();
    };
    if (signal?.aborted === true) return stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop, { once: true });
  });
}

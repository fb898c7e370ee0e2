/**
 * `gym trace convert --to otlp-json`: rewrites any readable input as OTLP/JSON lines (the
 * Collector file exporter's format) for Jaeger, Tempo or otel-tui import. A large input is read in
 * batches of whole traces (as `stats` reads it) and written batch by batch, so memory stays bounded.
 * @module
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { toOtlpJsonLines } from '../write/otlp-json.js';
import type { TraceSet } from '../assemble/trace-model.js';
import type { SpanRecord } from '../span-record.js';
import { readInBatches } from './load-batches.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import type { CommandOutput } from './output.js';

const CHUNK_CHARS = 1 << 20;

/** Options of {@link convert}. */
export interface ConvertOptions extends InputOptions {
  /** Target format; only `otlp-json` for now. */
  to: string;
  /** Output file; default: the command output (stdout). */
  out?: string;
}

/** Runs `convert`; returns the exit code (0, or 2 for bad input). Duplicate spans are written once. */
export async function convert(options: ConvertOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    if (options.to !== 'otlp-json') throw new TraceUserError(TRACE_ERROR_CODES.badOption, `Unknown --to '${options.to}'. Supported: otlp-json.`);
    let lines = 0;
    let spans = 0;
    if (options.out === undefined) {
      await readInBatches(options, out, ({ set }) => {
        spans += set.spanCount;
        for (const line of toOtlpJsonLines(spansOf(set))) {
          out.write(line + '\n');
          lines++;
        }
      });
    } else {
      // opened with the first batch (as before, a bad input leaves no empty file behind); written
      // synchronously in chunks inside each batch, so nothing queues up in memory when the disk is
      // slower than the read
      let fd: number | null = null;
      const path = options.out;
      try {
        await readInBatches(options, out, ({ set }) => {
          fd ??= openOut(path);
          spans += set.spanCount;
          let chunk: string[] = [];
          let size = 0;
          for (const line of toOtlpJsonLines(spansOf(set))) {
            lines++;
            chunk.push(line);
            size += line.length;
            if (size >= CHUNK_CHARS) {
              writeSync(fd, chunk.join('\n') + '\n');
              chunk = [];
              size = 0;
            }
          }
          if (chunk.length > 0) writeSync(fd, chunk.join('\n') + '\n');
        });
      } finally {
        if (fd !== null) closeSync(fd);
      }
      out.error(`wrote ${spans} spans in ${lines} lines to ${options.out}\n`);
    }
    return 0;
  });
}

function* spansOf(set: TraceSet): Generator<SpanRecord> {
  for (const t of set.traces.values()) for (const n of t.nodes.values()) yield n.span;
}

function openOut(path: string): number {
  try {
    return openSync(path, 'w');
  } catch (err) {
    throw new TraceUserError(TRACE_ERROR_CODES.badOption, `Cannot write --out ${path}: ${(err as Error).message}`, { cause: err });
  }
}

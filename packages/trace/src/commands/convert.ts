/**
 * `gym trace convert --to otlp-json`: rewrites any readable input as OTLP/JSON lines (the
 * Collector file exporter's format) for Jaeger, Tempo or otel-tui import.
 * @module
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { toOtlpJsonLines } from '../write/otlp-json.js';
import { loadTelemetry } from './load.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import type { CommandOutput } from './output.js';

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
    const { set } = await loadTelemetry(options, out);
    const spans = (function* () {
      for (const t of set.traces.values()) for (const n of t.nodes.values()) yield n.span;
    })();
    let lines = 0;
    if (options.out === undefined) {
      for (const line of toOtlpJsonLines(spans)) {
        out.write(line + '\n');
        lines++;
      }
    } else {
      const file = createWriteStream(options.out);
      try {
        await once(file, 'open'); // `once` rejects when 'error' comes first
      } catch (err) {
        throw new TraceUserError(TRACE_ERROR_CODES.badOption, `Cannot write --out ${options.out}: ${(err as Error).message}`, { cause: err });
      }
      for (const line of toOtlpJsonLines(spans)) {
        lines++;
        if (!file.write(line + '\n')) await once(file, 'drain');
      }
      file.end();
      await once(file, 'finish');
      out.error(`wrote ${set.spanCount} spans in ${lines} lines to ${options.out}\n`);
    }
    return 0;
  });
}

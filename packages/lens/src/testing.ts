/**
 * Test doubles for code instrumented with lens: capture spans in memory, parse console output.
 * Loads the OpenTelemetry SDK; import it from tests only.
 * @module
 */
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NemoLensConfig } from './setup/config.js';
import { setupTelemetry } from './setup/setup-telemetry.js';
import type { SetupTelemetryOptions, TelemetryHandle } from './setup/types.js';

export { InMemorySpanExporter };
export type { ReadableSpan };

/** Options of {@link captureSpans}. */
export interface CaptureSpansOptions extends Omit<SetupTelemetryOptions, 'spanExporter' | 'allowReinit'> {
  /** Span-group spec to enable. Default `'all'`. */
  spanGroups?: string;
}

/** What {@link captureSpans} returns. */
export interface SpanCapture {
  /** Flushes the batch processor and returns every span ended so far, in end order. */
  spans(): Promise<ReadableSpan[]>;
  /** Forgets the captured spans. */
  reset(): void;
  /** Shuts the telemetry down (ending open spans as truncated). */
  shutdown(): Promise<void>;
  /** The underlying handle. */
  readonly handle: TelemetryHandle;
}

/**
 * Sets telemetry up (re-initialising any previous setup) with an in-memory span exporter, metrics
 * and logs off, and the given span groups (default `all`).
 * @example
 * const capture = await captureSpans();
 * await doWork();
 * assert.deepEqual((await capture.spans()).map((s) => s.name), ['gym.rollout']);
 * await capture.shutdown();
 */
export async function captureSpans(options: CaptureSpansOptions = {}): Promise<SpanCapture> {
  const exporter = new InMemorySpanExporter();
  const { spanGroups = 'all', ...rest } = options;
  const config = new NemoLensConfig({ enabled: true, metricsEnabled: false, logsEnabled: false, spanGroups, exporter: 'console' });
  const handle = await setupTelemetry(config, { ...rest, spanExporter: exporter, allowReinit: true });
  return {
    handle,
    async spans() {
      await handle.forceFlush();
      return exporter.getFinishedSpans();
    },
    reset: () => exporter.reset(),
    async shutdown() {
      await handle.shutdown();
    },
  };
}

/**
 * Parses JSON-lines text (the console exporter's output): one value per non-blank line.
 * @throws SyntaxError naming the 1-based line number of a line that is not JSON.
 */
export function parseJsonLines<T = Record<string, unknown>>(text: string): T[] {
  const out: T[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch (error) {
      throw new SyntaxError(`Line ${i + 1} is not JSON: ${line.slice(0, 120)}`, { cause: error });
    }
  }
  return out;
}

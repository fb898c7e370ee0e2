/**
 * Small test sinks: a text stream that keeps what was written, a span exporter that keeps spans
 * even after shutdown, and a collector of coded process warnings.
 * @module
 */
import { PassThrough } from 'node:stream';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** A writable stream accumulating its text. */
export function textSink(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  return { stream, text: () => text };
}

/** A span exporter that records every exported span and keeps them after shutdown. */
export class KeepingSpanExporter implements SpanExporter {
  readonly spans: ReadableSpan[] = [];
  export(spans: ReadableSpan[], done: (result: { code: number }) => void): void {
    this.spans.push(...spans);
    done({ code: 0 });
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** A warning seen by {@link collectWarnings}. */
export interface SeenWarning {
  code: string | undefined;
  message: string;
}

/**
 * Collects process warnings. `process.emitWarning` emits on the next tick, so call `settled()`
 * (one macrotask turn) before asserting.
 */
export function collectWarnings(): { warnings: SeenWarning[]; settled(): Promise<void>; stop(): void } {
  const warnings: SeenWarning[] = [];
  const listener = (w: Error & { code?: string }): void => {
    warnings.push({ code: w.code, message: w.message });
  };
  process.on('warning', listener);
  return {
    warnings,
    settled: () => new Promise((resolve) => setImmediate(resolve)),
    stop: () => process.off('warning', listener),
  };
}

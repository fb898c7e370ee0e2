/**
 * What a read saw: counts per category and a few examples of malformed lines.
 * @module
 */

/** How many malformed-line examples are kept. */
export const MAX_MALFORMED_EXAMPLES = 10;

/** One malformed line: where, and why it was rejected. */
export interface MalformedExample {
  file: string;
  line: number;
  reason: string;
}

/** Counters of one read. Lines of multi-line records count once each in `linesRead` only. */
export interface ReadStats {
  files: number;
  bytes: number;
  linesRead: number;
  spans: number;
  /** Lines that are not span or metric records: log text, pino lines, log records, blanks. */
  skippedLines: number;
  /** Metric records read (their saturation metrics are kept; see `metric-points.ts`). */
  metricRecords: number;
  /** Records that looked like JSON or spans but could not be used. */
  malformedLines: number;
  malformedExamples: MalformedExample[];
  /** Spans read per input format. */
  formats: { console: number; python: number; otlp: number };
}

/** A zeroed {@link ReadStats}. */
export function emptyReadStats(): ReadStats {
  return { files: 0, bytes: 0, linesRead: 0, spans: 0, skippedLines: 0, metricRecords: 0, malformedLines: 0, malformedExamples: [], formats: { console: 0, python: 0, otlp: 0 } };
}

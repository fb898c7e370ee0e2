/**
 * Coded warnings of lens.
 *
 * Lens never throws from instrumentation; misconfiguration found while the program runs is reported
 * once through `process.emitWarning` (type `LensWarning`), which Node prints to stderr, tools can
 * observe with `process.on('warning')`, and users can silence with `--no-warnings`.
 * @module
 */

/** Warning codes; never reused once released. Catalogued in docs/errors.md. */
export const LENS_WARNINGS = {
  /** A span group is registered by two namespaces; both share one gate. */
  GROUP_COLLISION: 'LENS_W001',
  /** A preset names groups nothing has registered (yet). */
  PRESET_DEFERRED: 'LENS_W002',
  /** The span-group spec names presets or groups nothing has registered. */
  SPEC_UNKNOWN: 'LENS_W003',
  /** The spec is non-empty but no library registered any span group in this process. */
  SPEC_EMPTY_REGISTRY: 'LENS_W004',
  /** The spec resolved to no span group at all. */
  SPEC_SELECTS_NOTHING: 'LENS_W005',
  /** Span processor queue overflow: spans were dropped. */
  SPANS_DROPPED: 'LENS_W006',
  /** A telemetry setting could not be honoured; the process runs without it. */
  SETUP_DEGRADED: 'LENS_W007',
  /** `emitSpan` got an end before its start and clamped it. */
  SPAN_INVERTED: 'LENS_W008',
  /** An exporter failed to export a batch (collector down, stream error); the records are lost. */
  EXPORT_FAILED: 'LENS_W009',
  /** The console writer dropped records because its output stream stayed backed up. */
  OUTPUT_DROPPED: 'LENS_W010',
  /** At shutdown: the exact totals of spans, metric points and log records this process never delivered. */
  TELEMETRY_LOST: 'LENS_W011',
} as const;

export type LensWarningCode = (typeof LENS_WARNINGS)[keyof typeof LENS_WARNINGS];

/** Emits one coded lens warning. Never throws. */
export function lensWarn(code: LensWarningCode, message: string): void {
  try {
    process.emitWarning(message, { type: 'LensWarning', code });
  } catch {
    // a warning must never become a failure
  }
}

/**
 * A process-wide hook that removes secret values from the free text lens records: exception
 * messages and stacks, error status messages, bridged log records. The application installs it
 * (it knows its secrets); lens knows none. Not set, it costs one `undefined` check on error and
 * log paths only — attributes of ordinary spans are never scanned.
 * @module
 */

/** Returns `text` with secrets replaced. Must not throw. */
export type StringScrubber = (text: string) => string;

let scrubber: StringScrubber | undefined;

/** Installs (or with `undefined` removes) the scrubber applied to exception, status and log text. */
export function setStringScrubber(fn: StringScrubber | undefined): void {
  scrubber = fn;
}

/** `text` after the installed scrubber; unchanged when none is installed or it throws. */
export function scrubString(text: string): string {
  if (scrubber === undefined) return text;
  try {
    return scrubber(text);
  } catch {
    return text;
  }
}

/** True when a scrubber is installed. */
export function hasStringScrubber(): boolean {
  return scrubber !== undefined;
}

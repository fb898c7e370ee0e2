/**
 * Parsing JSON-lines text with line numbers, so bad lines can be reported, never silently dropped.
 * @module
 */
import { isJsonObject } from './types.js';
import type { JsonObject } from './types.js';

/** One parsed line. */
export interface JsonlLine {
  /** 1-based line number in the file. */
  lineNumber: number;
  /** The line text without its line ending: the de-duplication key of `_ng_task_index`. */
  text: string;
  value: JsonObject;
}

/** A line that could not be used, and why. */
export interface MalformedLine {
  lineNumber: number;
  reason: string;
}

/** Parsed lines and malformed ones, both in file order. */
export interface JsonlParse {
  lines: JsonlLine[];
  malformed: MalformedLine[];
}

/**
 * Parses JSON-lines text where every non-blank line must be a JSON object. Blank lines are
 * skipped; anything else that is not an object is reported with its line number.
 */
export function parseJsonlObjects(text: string): JsonlParse {
  const lines: JsonlLine[] = [];
  const malformed: MalformedLine[] = [];
  const raw = text.split('\n');
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!.endsWith('\r') ? raw[i]!.slice(0, -1) : raw[i]!;
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      malformed.push({ lineNumber: i + 1, reason: `not valid JSON (${(error as Error).message})` });
      continue;
    }
    if (!isJsonObject(value)) {
      malformed.push({ lineNumber: i + 1, reason: `not a JSON object (${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})` });
      continue;
    }
    lines.push({ lineNumber: i + 1, text: line, value });
  }
  return { lines, malformed };
}

/** Formats malformed lines for a message: `line 3: not valid JSON (…)`, at most `max` of them. */
export function describeMalformed(malformed: readonly MalformedLine[], max = 10): string {
  const shown = malformed.slice(0, max).map((m) => `line ${m.lineNumber}: ${m.reason}`);
  if (malformed.length > max) shown.push(`… and ${malformed.length - max} more`);
  return shown.join('; ');
}

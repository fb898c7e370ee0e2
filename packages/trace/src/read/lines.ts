/**
 * Lines of a text stream, split on `\n` only (a trailing `\r` dropped). Not node:readline: it also
 * breaks lines at U+2028 and U+2029 on Node 24, which JSON leaves unescaped inside strings, so one
 * record holding such an attribute value would become two malformed lines.
 * @module
 */
import type { Readable } from 'node:stream';

/**
 * Calls `onLine` for every line of `stream` (decoded text), in order; rejects on a stream error.
 * When `onLine` returns a promise, reading waits for it (a slow consumer holds the reader back).
 */
export async function forEachLine(stream: Readable, onLine: (line: string) => unknown): Promise<void> {
  let partial = '';
  for await (const chunk of stream) {
    const text = partial.length === 0 ? (chunk as string) : partial + (chunk as string);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      const wait = onLine(text.charCodeAt(nl - 1) === 13 ? text.slice(start, nl - 1) : text.slice(start, nl));
      if (wait instanceof Promise) await wait;
      start = nl + 1;
    }
    partial = start === 0 ? text : text.slice(start);
  }
  if (partial.length > 0) await onLine(partial.endsWith('\r') ? partial.slice(0, -1) : partial);
}

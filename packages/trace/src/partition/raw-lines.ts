/**
 * Lines of a file as byte ranges of a Buffer, split on `\n`, never decoded: the index build looks
 * at most lines only to pass them on (a span line is copied as it is) or to skip them (log lines),
 * and decoding every line to a JS string cost it more than everything else it does.
 * @module
 */
import { open } from 'node:fs/promises';

/** Default size of one read. */
export const RAW_CHUNK_BYTES = 1 << 20;

/**
 * Calls `onLine(buf, start, end)` for every line of the first `size` bytes of `path`, in order;
 * `end` excludes the `\n`. The buffer is reused: copy what must outlive the call. A line longer
 * than a chunk grows the buffer to hold it. `beforeRead` is awaited before each read (a consumer
 * that writes may hold the reads back).
 */
export async function forEachRawLine(
  path: string,
  size: number,
  onLine: (buf: Buffer, start: number, end: number) => void,
  chunkBytes = RAW_CHUNK_BYTES,
  beforeRead: () => Promise<void> | undefined = () => undefined,
): Promise<number> {
  const fh = await open(path, 'r');
  let buf = Buffer.allocUnsafe(chunkBytes);
  let filled = 0;
  let position = 0;
  try {
    while (position < size) {
      if (filled === buf.length) {
        // one line fills the buffer: make room for more of it
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, filled);
        buf = bigger;
      }
      await beforeRead();
      const { bytesRead } = await fh.read(buf, filled, Math.min(buf.length - filled, size - position), position);
      if (bytesRead === 0) break;
      position += bytesRead;
      const end = filled + bytesRead;
      let start = 0;
      for (let nl = buf.indexOf(10, filled); nl !== -1 && nl < end; nl = buf.indexOf(10, start)) {
        onLine(buf, start, nl);
        start = nl + 1;
      }
      // the unfinished line moves to the front for the next read
      filled = end - start;
      if (start > 0 && filled > 0) buf.copy(buf, 0, start, end);
    }
    if (filled > 0) onLine(buf, 0, filled);
    return position;
  } finally {
    await fh.close();
  }
}

/**
 * Reading an OTLP/HTTP request body: size-bounded, gzip (`Content-Encoding: gzip`) inflated with
 * the same bound, so neither a large body nor a small gzip bomb can exhaust memory.
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { gunzip } from 'node:zlib';

/** Why a body could not be read, as an HTTP status and message. */
export class BodyError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
    this.name = new.target.name;
  }
}

/**
 * Reads the whole body (at most `maxBytes`, before and after inflation).
 * @throws BodyError 413 when too large, 415 for an encoding other than gzip/identity, 400 for bad gzip.
 */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const encoding = String(req.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding !== 'gzip' && encoding !== 'identity') throw new BodyError(415, `Unsupported Content-Encoding '${encoding}'; send gzip or no encoding.`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyError(413, `Body of ${declared} bytes exceeds the limit of ${maxBytes}.`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new BodyError(413, `Body exceeds the limit of ${maxBytes} bytes.`);
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  if (encoding === 'identity') return body;
  return new Promise((resolve, reject) =>
    gunzip(body, { maxOutputLength: maxBytes }, (err, out) => {
      if (err === null) resolve(out);
      else if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') reject(new BodyError(413, `Inflated body exceeds the limit of ${maxBytes} bytes.`));
      else reject(new BodyError(400, `Invalid gzip body: ${err.message}`));
    }),
  );
}

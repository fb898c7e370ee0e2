/**
 * Writing a Server-Sent Events answer on a fastify reply: the reply is taken over from fastify
 * (`hijack`), so the ingress's `onResponse` — and with it the SERVER span — comes when the last
 * event was written, not when the headers went out; headers gym set on the reply (session
 * cookie, `traceresponse`, the model-call id) go out with the stream's.
 * @module
 */
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';

/** Resolves on the next 'drain' or 'close' (a caller that leaves while we wait never drains). */
async function drainedOrClosed(res: NodeJS.EventEmitter): Promise<void> {
  const stop = new AbortController();
  try {
    await Promise.race([once(res, 'drain', { signal: stop.signal }), once(res, 'close', { signal: stop.signal })]);
  } finally {
    stop.abort();
  }
}

/** One SSE event: its `event:` name and its `data:` value (JSON-encoded). */
export interface SseEvent {
  type: string;
}

/** Takes `reply` over from fastify: from here on only {@link writeSse} answers it. */
export function takeOverReply(reply: FastifyReply): void {
  reply.hijack();
}

/** How the events are framed. */
export interface SseFraming {
  /** Precede each `data:` line with `event: <type>` (the Responses and Anthropic streams). Default true. */
  named?: boolean;
  /** A last `data:` line after the events, e.g. Chat Completions' `[DONE]`. */
  terminator?: string;
}

/**
 * Writes `events` as `text/event-stream` on a reply taken over with {@link takeOverReply},
 * waiting for the caller to read (backpressure), and ends it. Resolves when the stream ended or
 * the caller went away (then nothing more is written); never rejects.
 */
export async function writeSse(reply: FastifyReply, events: readonly object[], framing: SseFraming = {}): Promise<void> {
  const named = framing.named ?? true;
  const res = reply.raw;
  if (res.destroyed) return;
  try {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) headers[name] = value;
    headers['content-type'] = 'text/event-stream; charset=utf-8';
    headers['cache-control'] = 'no-cache';
    // proxies (nginx) would otherwise hold the events back
    headers['x-accel-buffering'] = 'no';
    res.writeHead(200, headers);
    const lines = events.map((event) => `${named ? `event: ${(event as SseEvent).type}\n` : ''}data: ${JSON.stringify(event)}\n\n`);
    if (framing.terminator !== undefined) lines.push(`data: ${framing.terminator}\n\n`);
    for (const line of lines) {
      if (res.destroyed) return;
      if (!res.write(line)) {
        await drainedOrClosed(res);
      }
    }
    res.end();
    await finished(res);
  } catch {
    // the caller went away mid-stream: the SERVER span ends as "client aborted" on its own
    if (!res.destroyed) res.destroy();
  }
}

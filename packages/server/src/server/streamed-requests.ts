/**
 * `stream: true` on a model server's `POST /v1/responses` (and, in the same way, on
 * `POST /v1/chat/completions` as `chat.completion.chunk` events), as the original serves it: the body is
 * validated without `stream` / `stream_options` by the server's own schema, the server's
 * `responses` handler produces the whole answer, and the answer goes out as Responses streaming
 * events over SSE (responses-events.ts). The endpoint span `gym.model.responses` and the SERVER
 * span end when the last event was written; a caller that leaves first aborts the handler's
 * upstream call (the handler gets `context.signal`) and nothing more is written.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { failedResponseEvents, responseStreamEvents } from './responses-events.js';
import { takeOverReply, writeSse } from './sse.js';
import { chatCompletionChunks } from './chat-chunks.js';
import { logInRequestScope } from './request-log-scope.js';
import { isValidResponsesRequest, parsedResponsesRequest, RESPONSES_REQUEST } from './responses-request.js';
import { UNDECIDED, withTwin } from '../protocol/schema-twin.js';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { Response } from 'openai/resources/responses/responses';
import type { RouteContext, RouteHandler } from './json-route.js';

type Json = Record<string, unknown>;

/** What a streamed request asked for besides the stream. */
interface StreamOptions {
  /** `stream_options.include_usage` (Chat Completions): end with a usage chunk. */
  includeUsage: boolean;
}

/** The validated bodies of requests that asked for a stream (the flag itself is gone from them). */
const STREAMED = new WeakMap<object, StreamOptions>();

/** The fields of a streaming request that the non-streaming schemas do not take. */
const STREAM_FIELDS = new Set(['stream', 'stream_options']);

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * `schema`, accepting `stream: true` too: such a body is checked without its stream fields and
 * remembered as streamed. Any other `stream` value is the schema's to judge (a 422 for
 * `"true"`, as the original).
 */
export function acceptingStream(schema: z.ZodType): z.ZodType<unknown> {
  const accepting = z.unknown().transform((body, ctx) => {
    const streamed = isObject(body) && body['stream'] === true;
    const parsed = schema.safeParse(streamed ? Object.fromEntries(Object.entries(body).filter(([key]) => !STREAM_FIELDS.has(key))) : body, { reportInput: true });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue(issue as z.core.$ZodRawIssue);
      return z.NEVER;
    }
    if (streamed && isObject(parsed.data)) STREAMED.set(parsed.data, { includeUsage: isObject(body['stream_options']) && body['stream_options']['include_usage'] === true });
    return parsed.data;
  });
  // the default Responses schema has a plain-code twin: a valid body (every one on the hot path)
  // skips zod; it has no `stream: true` (the schema takes only false), so a streamed one comes here
  return schema === RESPONSES_REQUEST ? withTwin(accepting, (body) => (isValidResponsesRequest(body) ? parsedResponsesRequest(body as Json) : UNDECIDED)) : accepting;
}

/** An AbortSignal that fires when the caller goes away before the answer was completely sent. */
export function callerGone(context: RouteContext): AbortController {
  const controller = new AbortController();
  const res = context.reply.raw;
  const onClose = (): void => {
    if (!res.writableFinished) controller.abort(new Error('the caller went away'));
  };
  res.once('close', onClose);
  return controller;
}

/**
 * Wraps a `/v1/responses` handler: a streamed request is answered as SSE (see the module note),
 * any other goes to `handler` unchanged. Resolves, for the endpoint span, with the response
 * streamed (its usage and model), or `undefined` when there was none.
 */
export function streamingResponses<In, Out>(handler: RouteHandler<In, Out>): RouteHandler<In, Out | undefined> {
  // not an async function: a handler answering synchronously is answered without a promise
  return (body, context) => (isObject(body) && STREAMED.has(body) ? streamResponse(handler, body, context) : handler(body, context));
}

/** Answers a streamed `/v1/responses` request with `handler`'s response as SSE events. */
async function streamResponse<In, Out>(handler: RouteHandler<In, Out>, body: In, context: RouteContext): Promise<Out | undefined> {
  takeOverReply(context.reply);
  const gone = callerGone(context);
  let response: Out | undefined;
  let events;
  try {
    response = await handler(body, { ...context, signal: gone.signal });
    events = responseStreamEvents(response as unknown as Response);
  } catch (error) {
    if (gone.signal.aborted) {
      logInRequestScope(context.request, () => context.request.log.info('the caller of a streaming /v1/responses went away before the answer'));
      return undefined;
    }
    // headers are not out yet, but the stream is the answer's contract: a failure is its terminal event
    logInRequestScope(context.request, () => context.request.log.error({ err: error }, 'the responses handler failed while serving a streaming /v1/responses request'));
    const model = (body as Json)['model'];
    events = failedResponseEvents({
      id: `resp_${randomBytes(16).toString('hex')}`,
      model: typeof model === 'string' ? model : '',
      createdAt: Math.floor(Date.now() / 1000),
      message: (error as Error)?.message ?? String(error),
    });
  }
  await writeSse(context.reply, events);
  return response;
}

/**
 * Wraps a `/v1/chat/completions` handler: a streamed request is answered as `chat.completion.chunk`
 * events ending with `data: [DONE]`, as the original does; any other goes to `handler`
 * unchanged. A failure before the first chunk is the usual JSON error, as in the original.
 */
export function streamingChat<In, Out>(handler: RouteHandler<In, Out>): RouteHandler<In, Out> {
  return (body, context) => {
    const options = isObject(body) ? STREAMED.get(body) : undefined;
    return options === undefined ? handler(body, context) : streamChat(handler, body, context, options);
  };
}

/** Answers a streamed `/v1/chat/completions` request with `handler`'s completion as chunk events. */
async function streamChat<In, Out>(handler: RouteHandler<In, Out>, body: In, context: RouteContext, options: StreamOptions): Promise<Out> {
  const gone = callerGone(context);
  const completion = await handler(body, { ...context, signal: gone.signal });
  takeOverReply(context.reply);
  await writeSse(context.reply, chatCompletionChunks(completion as unknown as ChatCompletion, options.includeUsage), { named: false, terminator: '[DONE]' });
  return completion;
}

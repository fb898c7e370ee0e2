/**
 * The handler of a model server's `POST /v1/messages` (anthropic-messages.ts has the mapping):
 * the converted request goes through the server's own `/v1/responses` schema and handler, and
 * the answer comes back as an Anthropic message, or as its SSE events for `stream: true` — with
 * the endpoint span ending when the stream ends and a caller that leaves aborting the handler,
 * as on `/v1/responses`.
 * @module
 */
import { anthropicMessageEvents, GymMessagesInputError, messagesToResponsesRequest, responseToAnthropicMessage } from './anthropic-messages.js';
import { callerGone } from './streamed-requests.js';
import { logInRequestScope } from './request-log-scope.js';
import { takeOverReply, writeSse } from './sse.js';
import type { z } from 'zod';
import type { MessagesRequest } from './anthropic-messages.js';
import type { RouteHandler } from './json-route.js';

type Json = Record<string, unknown>;

/** `/v1/messages` over `responses` (the server's handler) and `responsesInput` (its body schema). */
export function messagesHandler(responses: RouteHandler<unknown, unknown>, responsesInput: z.ZodType): RouteHandler<MessagesRequest, Json | undefined> {
  return async (body, context) => {
    const parsed = responsesInput.safeParse(messagesToResponsesRequest(body));
    if (!parsed.success) {
      const fields = parsed.error.issues.map((issue) => issue.path.join('.') || '(root)').join(', ');
      throw new GymMessagesInputError(`The request does not map onto a valid Responses request of this server (fields: ${fields}).`);
    }
    const modelOf = (response: Json): string => body.model ?? (typeof response['model'] === 'string' ? response['model'] : '');
    if (body.stream !== true) {
      const response = (await responses(parsed.data, context)) as Json;
      return responseToAnthropicMessage(response, modelOf(response));
    }
    takeOverReply(context.reply);
    const gone = callerGone(context);
    let message: Json | undefined;
    let events;
    try {
      const response = (await responses(parsed.data, { ...context, signal: gone.signal })) as Json;
      message = responseToAnthropicMessage(response, modelOf(response));
      events = anthropicMessageEvents(message);
    } catch (error) {
      if (gone.signal.aborted) return undefined;
      logInRequestScope(context.request, () => context.request.log.error({ err: error }, 'the responses handler failed while serving a streaming /v1/messages request'));
      // Anthropic's streams report a failure after the 200 as an `error` event
      events = [{ type: 'error', error: { type: 'api_error', message: (error as Error)?.message ?? String(error) } }];
    }
    await writeSse(context.reply, events);
    return message;
  };
}

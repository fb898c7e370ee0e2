/**
 * `defineModelServer()`: `POST /v1/responses` (also streamed) and `POST /v1/chat/completions`,
 * wire-compatible with the `openai` client pointed at the server as `baseURL`, and
 * `POST /v1/messages`, the Anthropic dialect mapped onto the server's `responses` handler.
 * @module
 */
import { z } from 'zod';
import { createServerApp } from './app.js';
import { anyObjectTwin, withTwin } from '../protocol/schema-twin.js';
import { addJsonRoute } from './json-route.js';
import { CHAT_COMPLETIONS_REQUEST, RESPONSES_REQUEST } from './responses-request.js';
import { acceptingStream, streamingChat, streamingResponses } from './streamed-requests.js';
import { useAnthropicErrors } from './anthropic-errors.js';
import { MESSAGES_REQUEST } from './anthropic-messages.js';
import { messagesHandler } from './messages-endpoint.js';
import type { BuildOptions, EndpointSpec, ServerDefinition } from './endpoint.js';
import type { ModelDialect } from '../evidence/model-call-capture.js';

type AnyHandler = EndpointSpec<z.ZodType>['handler'];

/** Any JSON object: the schema for a route that reads its body itself. */
export const MODEL_REQUEST = withTwin(z.looseObject({}), anyObjectTwin);

/** The spec of a model server. */
export interface ModelServerSpec<R extends z.ZodType, C extends z.ZodType> {
  name: string;
  /**
   * `POST /v1/responses`: returns an OpenAI `Response` object. A request with `stream: true` is
   * validated without its stream fields, comes here as any other (with `context.signal`), and its
   * answer goes out as Responses streaming events over SSE.
   */
  responses: EndpointSpec<R>;
  /** `POST /v1/chat/completions`: returns an OpenAI `ChatCompletion` object (sent as `chat.completion.chunk` events for `stream: true`). */
  chatCompletions: EndpointSpec<C>;
}

/** A defined model server. */
export interface ModelServerDefinition extends ServerDefinition {
  readonly kind: 'model';
}

/** Defines a model server. */
export function defineModelServer<R extends z.ZodType = typeof RESPONSES_REQUEST, C extends z.ZodType = typeof CHAT_COMPLETIONS_REQUEST>(spec: ModelServerSpec<R, C>): ModelServerDefinition {
  const serverClass = 'SimpleResponsesAPIModel';
  const build = ({ modelCapture, ...options }: BuildOptions = {}) => {
    const app = createServerApp({ serverClass, ...options, name: options.name ?? spec.name });
    // decided once per app: with evidence off the routes get the handlers themselves
    const capture = (dialect: ModelDialect, handler: AnyHandler): AnyHandler => (modelCapture === undefined ? handler : modelCapture.wrap(dialect, handler));
    const responsesInput = spec.responses.input ?? RESPONSES_REQUEST;
    // the capture inside the stream: its record is written before the first event leaves
    const responses = capture('responses', spec.responses.handler as AnyHandler);
    addJsonRoute(app, { method: 'POST', path: '/v1/responses', input: acceptingStream(responsesInput), handler: streamingResponses(responses), endpoint: 'model_responses' });
    // the Anthropic dialect is a Responses call underneath, with a span of its own as in the original: `gym.model.messages`
    addJsonRoute(app, { method: 'POST', path: '/v1/messages', input: MESSAGES_REQUEST, handler: messagesHandler(responses, responsesInput), endpoint: 'model_messages' });
    useAnthropicErrors(app, '/v1/messages');
    addJsonRoute(app, {
      method: 'POST',
      path: '/v1/chat/completions',
      input: acceptingStream(spec.chatCompletions.input ?? CHAT_COMPLETIONS_REQUEST),
      handler: streamingChat(capture('chat_completions', spec.chatCompletions.handler as AnyHandler)),
      endpoint: 'model_chat_completions',
    });
    return app;
  };
  return { kind: 'model', name: spec.name, serverClass, routes: ['/v1/responses', '/v1/chat/completions', '/v1/messages'], build };
}

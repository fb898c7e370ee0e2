/**
 * The spans and metrics of gym's endpoints — `gym.rollout`, `gym.agent.responses`,
 * `gym.model.responses` / `gym.model.chat_completions` / `gym.model.messages` and `gym.verify` — added around the
 * handlers the server builders mark with their endpoint (`wrapEndpoint` of the server
 * instrumentation), so every server implementation is instrumented without writing telemetry
 * code. Each wrapper reads its gate per call, so a span-group change after start-up takes effect.
 * @module
 */
import type { Attributes, Span } from '@opentelemetry/api';
import { bindHttpClient } from '../http/scoped-client.js';
import type { TraceScope } from '../http/instrumentation.js';
import { rolloutIdOfRow } from '../protocol/rollout-id.js';
import type { GymEndpoint } from '../server/instrumentation.js';
import type { RouteContext, RouteHandler } from '../server/json-route.js';
import { ATTR, SPAN } from './attributes.js';
import { GATES } from './gates.js';
import { inGymSpan } from './gym-span.js';
import { rolloutIdIn, withRolloutId } from './rollout-context.js';
import { contextOf, scopeOf } from './trace-scope.js';
import type { GymTelemetry } from './state.js';

type Row = Record<string, unknown>;
type Wrapper = <In extends Row, Out>(handler: RouteHandler<In, Out>) => RouteHandler<In, Out>;
const { rollout: ROLLOUT, agent: AGENT, model_call: MODEL_CALL, verify: VERIFY } = GATES;

function usageAttributes(result: unknown): Attributes {
  const usage = (result as { usage?: Record<string, unknown> } | null)?.usage;
  const input = usage?.['input_tokens'] ?? usage?.['prompt_tokens'];
  const output = usage?.['output_tokens'] ?? usage?.['completion_tokens'];
  const attributes: Attributes = {};
  if (typeof input === 'number') attributes[ATTR.GEN_AI_INPUT_TOKENS] = input;
  if (typeof output === 'number') attributes[ATTR.GEN_AI_OUTPUT_TOKENS] = output;
  const model = (result as { model?: unknown } | null)?.model;
  if (typeof model === 'string') attributes[ATTR.GEN_AI_RESPONSE_MODEL] = model;
  return attributes;
}

/** `route` with `scope` as its scope, its HTTP client bound to it too. */
function withScope(route: RouteContext, scope: TraceScope): RouteContext {
  return { ...route, scope, http: bindHttpClient(route.http, scope) };
}

/** The endpoint wrappers of `telemetry`, by endpoint. */
export function endpointWrappers(telemetry: GymTelemetry): Record<GymEndpoint, Wrapper> {
  const { api, instruments } = telemetry;
  const completed = { success: instruments.rolloutCompleted.bind({ [ATTR.ROLLOUT_OUTCOME]: 'success' }), failure: instruments.rolloutCompleted.bind({ [ATTR.ROLLOUT_OUTCOME]: 'failure' }) };

  /**
   * Runs `handler` inside span `name`, a child of the request's scope, and hands the handler a route
   * whose scope is the new span: the calls and spans the handler makes after an `await` go under it.
   */
  const inSpan = <T>(name: string, route: RouteContext, run: (span: Span, route: RouteContext) => Promise<T>): Promise<T> =>
    inGymSpan(telemetry, name, (span, scope) => run(span, withScope(route, scope)), undefined, route.scope);

  /** `/run`: the rollout id onto the request's scope, then `gym.rollout`, `gym.rollout.duration_ms` (failures too) and `gym.rollout.completed_total`. */
  const rollout: Wrapper = (handler) => async (row, route) => {
    const given = contextOf(telemetry, route.scope);
    let scoped = route;
    if (rolloutIdIn(telemetry, given) === undefined) {
      // a caller that sent no rollout id (not the collector): the SERVER span of /run learns it only now
      const rolloutId = rolloutIdOfRow(row);
      api.trace.getSpan(given)?.setAttribute(ATTR.ROLLOUT_ID, rolloutId);
      scoped = withScope(route, scopeOf(withRolloutId(telemetry, given, rolloutId)));
    }
    if (!ROLLOUT.enabled) return handler(row, scoped);
    const started = performance.now();
    let outcome = completed.failure;
    try {
      const result = await inSpan(SPAN.ROLLOUT, scoped, async (span, inner) => {
        const rolled = await handler(row, inner);
        // the reward on the rollout too, so it is there when the verify group is off
        const reward = (rolled as { reward?: unknown } | null)?.reward;
        if (typeof reward === 'number') span.setAttribute(ATTR.VERIFY_REWARD, reward);
        return rolled;
      });
      outcome = completed.success;
      return result;
    } finally {
      instruments.rolloutDuration.record(performance.now() - started);
      outcome.add(1);
    }
  };

  /** Agent `/v1/responses`: `gym.agent.responses`. */
  const agentResponses: Wrapper = (handler) => async (body, route) => {
    if (!AGENT.enabled) return handler(body, route);
    return inSpan(SPAN.AGENT_RESPONSES, route, async (_span, inner) => handler(body, inner));
  };

  /** Model `/v1/responses`, `/v1/chat/completions` and `/v1/messages`: `gym.model.<dialect>` with model and token usage, `gym.model.call_duration_ms`. */
  const modelCall = (dialect: 'responses' | 'chat_completions' | 'messages'): Wrapper => {
    const spanName = `gym.model.${dialect}`;
    const callDuration = instruments.modelCallDuration.bind({ [ATTR.MODEL_DIALECT]: dialect, [ATTR.SERVER_NAME]: telemetry.serverName });
    return (handler) => async (body, route) => {
      if (!MODEL_CALL.enabled) return handler(body, route);
      const started = performance.now();
      try {
        return await inSpan(spanName, route, async (span, inner) => {
          span.setAttribute(ATTR.GEN_AI_OPERATION, 'chat');
          const requested = body['model'];
          if (typeof requested === 'string') span.setAttribute(ATTR.GEN_AI_REQUEST_MODEL, requested);
          const result = await handler(body, inner);
          const attributes = usageAttributes(result);
          // a request without `model` gets the server's configured one: name that
          if (typeof requested !== 'string' && attributes[ATTR.GEN_AI_RESPONSE_MODEL] !== undefined) attributes[ATTR.GEN_AI_REQUEST_MODEL] = attributes[ATTR.GEN_AI_RESPONSE_MODEL];
          span.setAttributes(attributes);
          return result;
        });
      } finally {
        callDuration.record(performance.now() - started);
      }
    };
  };

  /** Resources `/verify`: `gym.verify` with `gym.verify.reward`, `gym.verify.duration_ms`, `gym.verify.success_rate`. */
  const verify: Wrapper = (handler) => async (body, route) => {
    if (!VERIFY.enabled) return handler(body, route);
    const started = performance.now();
    instruments.verifyTally.calls++;
    try {
      const result = await inSpan(SPAN.VERIFY, route, async (span, inner) => {
        const verified = await handler(body, inner);
        const reward = (verified as { reward?: unknown } | null)?.reward;
        if (typeof reward === 'number') span.setAttribute(ATTR.VERIFY_REWARD, reward);
        return verified;
      });
      instruments.verifyTally.completed++;
      return result;
    } finally {
      instruments.verifyDuration.record(performance.now() - started);
    }
  };

  return { rollout, agent_responses: agentResponses, model_responses: modelCall('responses'), model_chat_completions: modelCall('chat_completions'), model_messages: modelCall('messages'), verify };
}

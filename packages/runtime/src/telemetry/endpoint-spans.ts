/**
 * The spans and metrics of gym's endpoints — `gym.rollout`, `gym.agent.responses`,
 * `gym.model.responses` / `gym.model.chat_completions` and `gym.verify` — added by wrapping the
 * handlers in the server builders, so every server implementation is instrumented without writing
 * telemetry code. With telemetry off each wrapper costs one function call and one variable read.
 * @module
 */
import type { Attributes, Span } from '@opentelemetry/api';
import type { RouteContext, RouteHandler } from '../server/json-route.js';
import { ATTR } from './attributes.js';
import { GATES } from './gates.js';
import { rolloutIdIn, rolloutIdOf, withRolloutId } from './rollout-context.js';
import { activeTelemetry } from './state.js';
import type { GymTelemetry } from './state.js';

type Row = Record<string, unknown>;
const { rollout: ROLLOUT, agent: AGENT, model_call: MODEL_CALL, verify: VERIFY } = GATES;

function baseAttributes(telemetry: GymTelemetry): Attributes {
  const attributes: Attributes = { [ATTR.SERVER_NAME]: telemetry.serverName };
  const rolloutId = rolloutIdIn(telemetry, telemetry.api.context.active());
  if (rolloutId !== undefined) attributes[ATTR.ROLLOUT_ID] = rolloutId;
  return attributes;
}

function inSpan<T>(telemetry: GymTelemetry, name: string, run: (span: Span) => Promise<T>): Promise<T> {
  return telemetry.lens.spanCm(name, run, baseAttributes(telemetry), { tracer: telemetry.tracer });
}

/** `/run`: the rollout id into baggage, then `gym.rollout`, `gym.rollout.duration_ms` (failures too) and `gym.rollout.completed_total`. */
export function traceRollout<In extends Row, Out>(handler: RouteHandler<In, Out>): RouteHandler<In, Out> {
  return async (row, route) => {
    const telemetry = activeTelemetry();
    if (telemetry === undefined) return handler(row, route);
    const rolloutId = rolloutIdOf(row);
    const active = telemetry.api.context.active();
    // the SERVER span of /run learns the id only now
    telemetry.api.trace.getSpan(active)?.setAttribute(ATTR.ROLLOUT_ID, rolloutId);
    const ctx = withRolloutId(telemetry, active, rolloutId);
    if (!ROLLOUT.enabled) return telemetry.api.context.with(ctx, () => handler(row, route));
    const started = performance.now();
    let outcome = 'failure';
    try {
      const result = await telemetry.api.context.with(ctx, () =>
        inSpan(telemetry, 'gym.rollout', async (span) => {
          const rolled = await handler(row, route);
          // the reward on the rollout too, so it is there when the verify group is off
          const reward = (rolled as { reward?: unknown } | null)?.reward;
          if (typeof reward === 'number') span.setAttribute(ATTR.VERIFY_REWARD, reward);
          return rolled;
        }),
      );
      outcome = 'success';
      return result;
    } finally {
      telemetry.instruments.rolloutDuration.record(performance.now() - started);
      telemetry.instruments.rolloutCompleted.add(1, { [ATTR.ROLLOUT_OUTCOME]: outcome });
    }
  };
}

/** Agent `/v1/responses`: `gym.agent.responses`. */
export function traceAgentResponses<In, Out>(handler: RouteHandler<In, Out>): RouteHandler<In, Out> {
  return async (body, route) => {
    const telemetry = activeTelemetry();
    if (telemetry === undefined || !AGENT.enabled) return handler(body, route);
    return inSpan(telemetry, 'gym.agent.responses', async () => handler(body, route));
  };
}

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

/** Model `/v1/responses` and `/v1/chat/completions`: `gym.model.<dialect>` with model and token usage, `gym.model.call_duration_ms`. */
export function traceModelCall<In extends Row, Out>(dialect: 'responses' | 'chat_completions', handler: RouteHandler<In, Out>): RouteHandler<In, Out> {
  const spanName = `gym.model.${dialect}`;
  return async (body, route) => {
    const telemetry = activeTelemetry();
    if (telemetry === undefined || !MODEL_CALL.enabled) return handler(body, route);
    const started = performance.now();
    try {
      return await inSpan(telemetry, spanName, async (span) => {
        span.setAttribute(ATTR.GEN_AI_OPERATION, 'chat');
        const requested = body['model'];
        if (typeof requested === 'string') span.setAttribute(ATTR.GEN_AI_REQUEST_MODEL, requested);
        const result = await handler(body, route);
        const attributes = usageAttributes(result);
        // a request without `model` gets the server's configured one: name that
        if (typeof requested !== 'string' && attributes[ATTR.GEN_AI_RESPONSE_MODEL] !== undefined) attributes[ATTR.GEN_AI_REQUEST_MODEL] = attributes[ATTR.GEN_AI_RESPONSE_MODEL];
        span.setAttributes(attributes);
        return result;
      });
    } finally {
      telemetry.instruments.modelCallDuration.record(performance.now() - started, { [ATTR.MODEL_DIALECT]: dialect, [ATTR.SERVER_NAME]: telemetry.serverName });
    }
  };
}

/** Resources `/verify`: `gym.verify` with `gym.verify.reward`, `gym.verify.duration_ms`, `gym.verify.success_rate`. */
export function traceVerify<In, Out>(handler: RouteHandler<In, Out>): RouteHandler<In, Out> {
  return async (body, route: RouteContext) => {
    const telemetry = activeTelemetry();
    if (telemetry === undefined || !VERIFY.enabled) return handler(body, route);
    const { instruments } = telemetry;
    const started = performance.now();
    instruments.verifyTally.calls++;
    try {
      const result = await inSpan(telemetry, 'gym.verify', async (span) => {
        const verified = await handler(body, route);
        const reward = (verified as { reward?: unknown } | null)?.reward;
        if (typeof reward === 'number') span.setAttribute(ATTR.VERIFY_REWARD, reward);
        return verified;
      });
      instruments.verifyTally.completed++;
      return result;
    } finally {
      instruments.verifyDuration.record(performance.now() - started);
      instruments.verifySuccessRate.record(instruments.verifyTally.completed / instruments.verifyTally.calls);
    }
  };
}

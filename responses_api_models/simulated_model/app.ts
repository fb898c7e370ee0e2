/**
 * `simulated_model`: a SIMULATOR of a policy model, not a model. It speaks the OpenAI Responses
 * API and chat completions, calls the first offered tool with schema-valid arguments derived from
 * the conversation, answers in text once a tool output is present, reports plausible token usage,
 * and waits as its latency model says — so the whole three-server flow, demos and load tests run
 * without a GPU or an API key. Its answers are canned; never evaluate anything with it.
 * @module
 */
import { z } from 'zod';
import { defineModelServer } from '@gym/server';
import type { ServerFactory } from '@gym/server';
import { simulateChatCompletion } from './chat.js';
import { delay, LATENCY_CONFIG, latencyMs } from './latency.js';
import { simulateResponse } from './responses.js';

/** The simulated model's own config fields. */
export const SIMULATED_MODEL_CONFIG = z.looseObject({
  model_name: z.string().default('simulated-policy'),
  latency: LATENCY_CONFIG,
});

/** This server's own settings, checked by `gym env validate`. */
export const configSchema = SIMULATED_MODEL_CONFIG;

const createSimulatedModel: ServerFactory = (context) => {
  const parsed = SIMULATED_MODEL_CONFIG.safeParse(context.config);
  if (!parsed.success) {
    throw new Error(`Invalid simulated_model config of '${context.instance.instanceName}': ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const { model_name: model, latency } = parsed.data;
  return defineModelServer({
    name: context.instance.instanceName,
    // with no latency the answer is synchronous: the route sends it without a promise
    responses: {
      handler: (body) => {
        const { response, outputTokens } = simulateResponse(body, model);
        return after(delay(latencyMs(latency, outputTokens)), response);
      },
    },
    chatCompletions: {
      handler: (body) => {
        const { completion, outputTokens } = simulateChatCompletion(body, model);
        return after(delay(latencyMs(latency, outputTokens)), completion);
      },
    },
  });
};

/** `value`, once `wait` (if any) is over. */
function after<T>(wait: Promise<void> | undefined, value: T): T | Promise<T> {
  return wait === undefined ? value : wait.then(() => value);
}

export default createSimulatedModel;

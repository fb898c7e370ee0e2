/**
 * The Responses API data gym passes between servers, typed with the `openai` package's own types:
 * the create params of a task, input and output items (with the training fields gym's model
 * servers add), and a model's answer as servers see it on the wire.
 * @module
 */
import { z } from 'zod';
import { isJsonObject } from './json.js';
import { typedSchema } from './typed-schema.js';
import type { Response, ResponseCreateParamsNonStreaming, ResponseInputItem, ResponseOutputItem, ResponseUsage } from 'openai/resources/responses/responses';

export type { ResponseInputItem, ResponseOutputItem, ResponseUsage };

/** Token-level fields a message, function call or reasoning item may carry for training. */
export interface TrainingFields {
  prompt_token_ids?: number[];
  generation_token_ids?: number[];
  generation_log_probs?: number[];
}

/** An input item as gym sends it: any `openai` input item, plus the training fields. */
export type GymInputItem = ResponseInputItem & TrainingFields;

/** An output item as gym's model servers answer it: any `openai` output item, plus the training fields. */
export type GymOutputItem = ResponseOutputItem & TrainingFields;

/**
 * An item of a rollout's `response.output`, which holds the whole trajectory: the model's output
 * items and the tool results the agent fed back (`function_call_output`, as the original's
 * `NeMoGymResponseOutputItem` allows).
 */
export type TrajectoryItem = GymOutputItem | ResponseInputItem.FunctionCallOutput;

/**
 * `responses_create_params` of a task (the original's `NeMoGymResponseCreateParamsNonStreaming`):
 * the `openai` create params, `input` a string or gym input items, provider extras allowed.
 */
export type ResponsesCreateParams = Omit<ResponseCreateParamsNonStreaming, 'input'> & {
  input?: string | GymInputItem[];
  [extra: string]: unknown;
};

/**
 * A model's answer on the wire (`NeMoGymResponse`): an `openai` `Response` without the SDK's
 * computed `output_text`, every field but `output` optional (servers fill what they know).
 */
export type ResponsesResult = Partial<Omit<Response, 'output' | 'output_text'>> & {
  output: TrajectoryItem[];
  [extra: string]: unknown;
};

/** `responses_create_params` as a task row, `/run` and `/verify` carry it: an object. */
export const RESPONSES_CREATE_PARAMS = typedSchema<ResponsesCreateParams>(z.looseObject({}), isJsonObject);

/** A model's answer inside a verify request: every output item carries its `type`, which verifiers switch on. */
export const RESPONSES_RESULT = typedSchema<ResponsesResult>(z.looseObject({ output: z.array(z.looseObject({ type: z.string() })) }), isResponsesResult);

/** True exactly when {@link RESPONSES_RESULT} accepts `value`. */
export function isResponsesResult(value: unknown): boolean {
  const output = isJsonObject(value) ? value['output'] : undefined;
  return Array.isArray(output) && output.every((item) => isJsonObject(item) && typeof item['type'] === 'string');
}

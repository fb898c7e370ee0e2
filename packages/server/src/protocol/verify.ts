/**
 * `POST /verify` of a resources server: the request (a task row with the model's answer) and the
 * verify response (the request with its `reward`), as the original's `BaseVerifyRequest` /
 * `BaseVerifyResponse`.
 * @module
 */
import { z } from 'zod';
import { isResponsesResult, RESPONSES_CREATE_PARAMS, RESPONSES_RESULT } from './responses.js';
import { isJsonObject } from './json.js';
import { looseObjectCopy, UNDECIDED, withTwin } from './schema-twin.js';
import type { ResponsesCreateParams, ResponsesResult } from './responses.js';

/** What a verifier receives: the task's create params, the model's answer, any task fields. */
export interface VerifyRequest {
  responses_create_params: ResponsesCreateParams;
  response: ResponsesResult;
  [field: string]: unknown;
}

/** What `/verify` answers: the request with the reward (and whatever the verifier adds). */
export interface VerifyResponse extends VerifyRequest {
  reward: number;
}

const REQUEST_FIELDS = ['responses_create_params', 'response'] as const;
const RESPONSE_FIELDS = [...REQUEST_FIELDS, 'reward'] as const;

function isVerifyRequest(value: unknown): value is Record<string, unknown> {
  return isJsonObject(value) && isJsonObject(value['responses_create_params']) && isResponsesResult(value['response']);
}

/** `POST /verify` body. */
export const VERIFY_REQUEST = withTwin(z.looseObject({ responses_create_params: RESPONSES_CREATE_PARAMS, response: RESPONSES_RESULT }), (value) =>
  isVerifyRequest(value) ? looseObjectCopy(value, REQUEST_FIELDS) : UNDECIDED,
);

/** A `/verify` answer, as an agent checks it before handing it to the collector. */
export const VERIFY_RESPONSE = withTwin(VERIFY_REQUEST.extend({ reward: z.number() }), (value) =>
  // z.number() refuses NaN and the infinities
  isVerifyRequest(value) && Number.isFinite(value['reward']) ? looseObjectCopy(value, RESPONSE_FIELDS) : UNDECIDED,
);

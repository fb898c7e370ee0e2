/**
 * `POST /verify` of a resources server: the request (a task row with the model's answer) and the
 * verify response (the request with its `reward`), as the original's `BaseVerifyRequest` /
 * `BaseVerifyResponse`.
 * @module
 */
import { z } from 'zod';
import { RESPONSES_CREATE_PARAMS, RESPONSES_RESULT } from './responses.js';
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

/** `POST /verify` body. */
export const VERIFY_REQUEST = z.looseObject({ responses_create_params: RESPONSES_CREATE_PARAMS, response: RESPONSES_RESULT });

/** A `/verify` answer, as an agent checks it before handing it to the collector. */
export const VERIFY_RESPONSE = VERIFY_REQUEST.extend({ reward: z.number() });

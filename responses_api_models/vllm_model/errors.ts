/**
 * Errors of the vllm_model server. A request the converters cannot express for vLLM is the
 * caller's to fix: it answers 400 `{"detail": …}` (the ingress maps any `statusCode` 4xx),
 * where the original raised and answered 500.
 * @module
 */
import { GymUpstreamError, GymUserError } from '@gym/server';

/** The request cannot be sent to vLLM as it is (unsupported item type, bad metadata JSON, …). */
export class GymModelInputError extends GymUserError {
  /** Read by the ingress: answer 400 with this error's message as `detail`. */
  readonly statusCode = 400;

  constructor(message: string) {
    super('GYM_MODEL_UNSUPPORTED_INPUT', message);
  }
}

/** vLLM answered 2xx with something gym cannot use (no choices, partial or disagreeing token ids, …). */
export class GymModelReplyError extends GymUpstreamError {
  constructor(message: string) {
    super('GYM_MODEL_BAD_REPLY', message);
  }
}

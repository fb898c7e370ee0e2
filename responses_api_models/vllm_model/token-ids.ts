/**
 * Training mode: the prompt ids, sampled ids and logprobs of a vLLM reply.
 * Sources, in order of preference:
 *   (a) a complete bundle already on `choice.message` (NeMo RL's patched server);
 *   (b) top-level `prompt_token_ids` with `choice.token_ids` (vLLM `return_token_ids`);
 *   (c) `choice.logprobs.content[].token` = `"token_id:<n>"` with `logprob`, and prompt ids from
 *       vLLM's `/tokenize`.
 * Sources that are present must agree; a partly present source is an error.
 * @module
 */
import { GymModelReplyError } from './errors.js';

type Json = Record<string, unknown>;

/** The token-id fields put on the assistant message (and then on the last output item). */
export interface TokenBundle {
  prompt_token_ids: number[];
  generation_token_ids: number[];
  generation_log_probs: number[];
  routed_experts?: unknown;
}

const REQUIRED = ['prompt_token_ids', 'generation_token_ids', 'generation_log_probs'] as const;

/**
 * Resolves the token bundle of `completion`'s first choice and moves it onto `choice.message`,
 * removing the transport fields (top-level `prompt_token_ids`, `choice.token_ids`, and
 * `choice.logprobs` when consumed). `tokenize` is called only when source (c) needs prompt ids.
 */
export async function attachTokenIds(completion: Json, tokenize: () => Promise<unknown>): Promise<TokenBundle> {
  const choice = (completion['choices'] as Json[])[0]!;
  const message = choice['message'] as Json;
  const fromMessage = messageBundle(message);
  const fromResponse = responseIds(completion, choice);
  let bundle: TokenBundle;
  if (fromMessage !== undefined) {
    if (fromResponse !== undefined && (!sameIds(fromMessage.prompt_token_ids, fromResponse.prompt) || !sameIds(fromMessage.generation_token_ids, fromResponse.generation))) {
      throw new GymModelReplyError('Token ids on choice.message disagree with the top-level prompt_token_ids / choice.token_ids of the same vLLM reply.');
    }
    bundle = fromMessage;
  } else {
    const logprobs = choiceLogprobs(choice);
    let prompt: number[];
    if (fromResponse !== undefined) {
      if (!sameIds(fromResponse.generation, logprobs.ids)) {
        throw new GymModelReplyError('choice.token_ids disagree with the token ids in choice.logprobs of the same vLLM reply.');
      }
      prompt = fromResponse.prompt;
    } else {
      prompt = idList(((await tokenize()) as Json | undefined)?.['tokens'], 'tokenize.tokens');
    }
    bundle = validated({ prompt_token_ids: prompt, generation_token_ids: logprobs.ids, generation_log_probs: logprobs.logprobs }, 'vLLM reply');
    if (message['routed_experts'] != null) bundle.routed_experts = message['routed_experts'];
    delete choice['logprobs'];
  }
  delete completion['prompt_token_ids'];
  delete choice['token_ids'];
  Object.assign(message, bundle);
  return bundle;
}

/** Source (a): all three fields on the message, or none. */
function messageBundle(message: Json): TokenBundle | undefined {
  if (!REQUIRED.some((key) => message[key] != null)) return undefined;
  const bundle = validated(message, 'choice.message');
  if (message['routed_experts'] != null) bundle.routed_experts = message['routed_experts'];
  return bundle;
}

/** Source (b): top-level `prompt_token_ids` and `choice.token_ids`, both or neither. */
function responseIds(completion: Json, choice: Json): { prompt: number[]; generation: number[] } | undefined {
  const prompt = completion['prompt_token_ids'];
  const generation = choice['token_ids'];
  if (prompt == null && generation == null) return undefined;
  if (prompt == null || generation == null) {
    throw new GymModelReplyError(`vLLM returned partial token metadata: ${prompt == null ? 'prompt_token_ids' : 'choice.token_ids'} is missing.`);
  }
  return { prompt: idList(prompt, 'prompt_token_ids'), generation: idList(generation, 'choice.token_ids') };
}

/** Source (c): `choice.logprobs.content[]` with `token: "token_id:<n>"` and `logprob`. */
function choiceLogprobs(choice: Json): { ids: number[]; logprobs: number[] } {
  const content = (choice['logprobs'] as Json | null | undefined)?.['content'];
  if (!Array.isArray(content)) {
    throw new GymModelReplyError('Training mode requested per-token logprobs (logprobs: true, top_logprobs: 0) but the vLLM reply has no choice.logprobs.content; token ids cannot be read.');
  }
  const ids: number[] = [];
  const logprobs: number[] = [];
  content.forEach((entry: Json, i) => {
    const token = entry?.['token'];
    const match = typeof token === 'string' ? /^token_id:(-?\d+)$/.exec(token) : null;
    if (match === null) throw new GymModelReplyError(`choice.logprobs.content[${i}].token must look like "token_id:<int>"; start vLLM so that it honours return_tokens_as_token_ids.`);
    const logprob = entry['logprob'];
    if (typeof logprob !== 'number') throw new GymModelReplyError(`choice.logprobs.content[${i}].logprob must be a number.`);
    ids.push(Number(match[1]));
    logprobs.push(logprob);
  });
  return { ids, logprobs };
}

function validated(source: Json, where: string): TokenBundle {
  const missing = REQUIRED.filter((key) => source[key] == null);
  if (missing.length > 0) throw new GymModelReplyError(`${where} has partial token metadata; missing: ${missing.join(', ')}.`);
  const bundle: TokenBundle = {
    prompt_token_ids: idList(source['prompt_token_ids'], `${where}.prompt_token_ids`),
    generation_token_ids: idList(source['generation_token_ids'], `${where}.generation_token_ids`),
    generation_log_probs: numberList(source['generation_log_probs'], `${where}.generation_log_probs`),
  };
  if (bundle.generation_token_ids.length !== bundle.generation_log_probs.length) {
    throw new GymModelReplyError(`${where} has ${bundle.generation_token_ids.length} generation token ids but ${bundle.generation_log_probs.length} log probabilities.`);
  }
  return bundle;
}

function idList(value: unknown, where: string): number[] {
  if (!Array.isArray(value) || !value.every((v) => Number.isInteger(v))) throw new GymModelReplyError(`${where} must be a list of integer token ids.`);
  return value as number[];
}

function numberList(value: unknown, where: string): number[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'number')) throw new GymModelReplyError(`${where} must be a list of numbers.`);
  return value;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

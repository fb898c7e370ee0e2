import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { attachTokenIds } from '../token-ids.js';
import * as fx from './fixtures.js';

type Json = Record<string, unknown>;
const choiceOf = (c: Json) => (c['choices'] as Json[])[0]!;
const never = async (): Promise<unknown> => assert.fail('tokenize must not be called');
const { IDS, LOGPROBS, PROMPT } = fx.TOKENS;

describe('attachTokenIds', () => {
  it('takes a complete bundle from choice.message (source a) without tokenizing', async () => {
    const completion = fx.messageBundle({ routed_experts: [[1, 2]] });
    const bundle = await attachTokenIds(completion, never);
    assert.deepEqual(bundle, { prompt_token_ids: PROMPT, generation_token_ids: IDS, generation_log_probs: LOGPROBS, routed_experts: [[1, 2]] });
  });

  it('uses prompt_token_ids + choice.token_ids (source b) with logprobs from choice.logprobs', async () => {
    const completion = fx.responseTokenIds();
    const bundle = await attachTokenIds(completion, never);
    assert.deepEqual(bundle, { prompt_token_ids: PROMPT, generation_token_ids: IDS, generation_log_probs: LOGPROBS });
    assert.equal('prompt_token_ids' in completion, false);
    assert.equal('token_ids' in choiceOf(completion), false);
    assert.equal('logprobs' in choiceOf(completion), false);
    assert.deepEqual((choiceOf(completion)['message'] as Json)['generation_token_ids'], IDS);
  });

  it('reads token_id:<n> logprobs (source c) and asks /tokenize for the prompt ids', async () => {
    let calls = 0;
    const bundle = await attachTokenIds(fx.logprobTokens(), async () => (calls++, { tokens: [7, 8, 9], count: 3 }));
    assert.equal(calls, 1);
    assert.deepEqual(bundle, { prompt_token_ids: [7, 8, 9], generation_token_ids: IDS, generation_log_probs: LOGPROBS });
  });

  it('fails when the message bundle disagrees with the response ids', async () => {
    const completion = fx.messageBundle();
    completion['prompt_token_ids'] = PROMPT;
    choiceOf(completion)['token_ids'] = [...IDS.slice(0, -1), 1];
    await assert.rejects(attachTokenIds(completion, never), { code: 'GYM_MODEL_BAD_REPLY', message: /disagree/ });
  });

  it('fails when choice.token_ids disagree with the logprob tokens', async () => {
    await assert.rejects(attachTokenIds(fx.responseTokenIds([1, 2, 3, 4, 5]), never), { message: /choice\.token_ids disagree/ });
  });

  it('fails on partial metadata in either source', async () => {
    const partialMessage = fx.messageBundle({ generation_log_probs: undefined });
    await assert.rejects(attachTokenIds(partialMessage, never), { message: /missing: generation_log_probs/ });
    const partialResponse = fx.logprobTokens();
    partialResponse['prompt_token_ids'] = PROMPT;
    await assert.rejects(attachTokenIds(partialResponse, never), { message: /choice\.token_ids is missing/ });
  });

  it('fails when the numbers of ids and logprobs differ', async () => {
    await assert.rejects(attachTokenIds(fx.messageBundle({ generation_log_probs: [-1] }), never), { message: /5 generation token ids but 1 log probabilities/ });
  });

  it('fails clearly without logprobs or with tokens not in token_id form', async () => {
    await assert.rejects(attachTokenIds(fx.plainText(), never), { message: /no choice\.logprobs\.content/ });
    const words = fx.logprobTokens();
    ((choiceOf(words)['logprobs'] as Json)['content'] as Json[])[0]!['token'] = 'The';
    await assert.rejects(attachTokenIds(words, never), { message: /content\[0\]\.token must look like "token_id:<int>"/ });
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseVllmModelConfig } from '../config.js';
import { checkNativeConfig, prepareNativeRequest } from '../native-responses.js';

const FIELDS = { entrypoint: 'app.ts', base_url: 'http://gpu:8000/v1', api_key: 'EMPTY', model: 'm', return_token_id_information: false, uses_reasoning_parser: true };

describe('vllm_model config', () => {
  it('applies the defaults of the original and turns one base_url into a list', () => {
    const c = parseVllmModelConfig(FIELDS, 'policy_model');
    assert.deepEqual(c.baseUrls, ['http://gpu:8000/v1']);
    assert.deepEqual(
      [c.usesInterleavedReasoning, c.sequentialReasoningAllowed, c.isResponsesNative, c.replaceDeveloperRoleWithSystem, c.preserveReasoningInAssistantContent, c.defaultHeaders],
      [true, true, false, false, false, {}],
    );
  });

  it('accepts string booleans from ${oc.env:…} and a list of replicas', () => {
    const c = parseVllmModelConfig({ ...FIELDS, base_url: ['http://a/v1', 'http://b/v1'], return_token_id_information: 'true', uses_reasoning_parser: 'False' }, 'p');
    assert.deepEqual([c.baseUrls.length, c.returnTokenIdInformation, c.usesReasoningParser], [2, true, false]);
  });

  it('requires return_token_id_information and uses_reasoning_parser, naming them', () => {
    const { return_token_id_information: _a, uses_reasoning_parser: _b, ...rest } = FIELDS;
    assert.throws(() => parseVllmModelConfig(rest, 'policy_model'), { code: 'GYM_MODEL_CONFIG_INVALID', message: /return_token_id_information.*uses_reasoning_parser/ });
  });
});

describe('vllm_model native Responses path', () => {
  it('sets the model, chat_template_kwargs, extra_body underneath and sampling overrides on top', () => {
    const c = parseVllmModelConfig({ ...FIELDS, is_responses_native: true, chat_template_kwargs: { t: 1 }, extra_body: { seed: 3, temperature: 0.1 }, sampling_overrides: { top_p: 1 } }, 'p');
    assert.deepEqual(prepareNativeRequest({ input: 'x', model: 'y', temperature: 0.5, top_p: 0.2 }, c), {
      seed: 3,
      temperature: 0.5,
      input: 'x',
      model: 'm',
      top_p: 1,
      chat_template_kwargs: { t: 1 },
    });
  });

  it('refuses training mode with the native path at startup', () => {
    const c = parseVllmModelConfig({ ...FIELDS, is_responses_native: true, return_token_id_information: true }, 'p');
    assert.throws(() => checkNativeConfig(c), { code: 'GYM_MODEL_CONFIG_UNSUPPORTED', message: /return_token_id_information/ });
  });
});

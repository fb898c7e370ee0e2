import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { prepareChatRequest } from '../params.js';
import type { ParamsConfig } from '../params.js';

const BASE: ParamsConfig = {
  model: 'served-model',
  replaceDeveloperRoleWithSystem: false,
  chatTemplateKwargs: null,
  extraBody: null,
  returnTokenIdInformation: false,
  requestPromptAndGenerationTokenIds: false,
  usesReasoningParser: true,
  usesInterleavedReasoning: true,
  preserveReasoningInAssistantContent: false,
  samplingOverrides: null,
};
const prepare = (body: Record<string, unknown>, config: Partial<ParamsConfig> = {}) => prepareChatRequest(body, { ...BASE, ...config });
const USER = [{ role: 'user', content: 'hi' }];

describe('prepareChatRequest', () => {
  it('sets the configured model and leaves the caller body untouched', () => {
    const body = { model: 'whatever', messages: [{ role: 'developer', content: 'd' }] };
    const out = prepare(body, { replaceDeveloperRoleWithSystem: true });
    assert.equal(out['model'], 'served-model');
    assert.deepEqual(out['messages'], [{ role: 'system', content: 'd' }]);
    assert.deepEqual(body, { model: 'whatever', messages: [{ role: 'developer', content: 'd' }] });
    assert.deepEqual(prepare(body)['messages'], [{ role: 'developer', content: 'd' }]);
  });

  it('merges chat_template_kwargs: config, then the body, then row metadata', () => {
    const out = prepare(
      { messages: USER, chat_template_kwargs: { b: 2 }, metadata: { chat_template_kwargs: '{"enable_thinking": false, "a": 9}' } },
      { chatTemplateKwargs: { enable_thinking: true, a: 1 } },
    );
    assert.deepEqual(out['chat_template_kwargs'], { enable_thinking: false, a: 9, b: 2 });
    assert.equal('chat_template_kwargs' in prepare({ messages: USER }), false);
  });

  it('merges extra_body from config and metadata underneath the body', () => {
    const out = prepare({ messages: USER, temperature: 0.5, metadata: { extra_body: '{"seed": 7, "temperature": 2}' } }, { extraBody: { top_k: 20, seed: 1 } });
    assert.deepEqual([out['top_k'], out['seed'], out['temperature']], [20, 7, 0.5]);
  });

  it('rejects metadata that is not a JSON object, naming the key', () => {
    assert.throws(() => prepare({ messages: USER, metadata: { extra_body: '{seed: 7}' } }), { statusCode: 400, message: /metadata\.extra_body/ });
    assert.throws(() => prepare({ messages: USER, metadata: { chat_template_kwargs: '[1]' } }), { message: /metadata\.chat_template_kwargs/ });
  });

  it('applies sampling_overrides last, over the body and extra_body', () => {
    const out = prepare({ messages: USER, temperature: 0.1, metadata: { extra_body: '{"top_p": 0.5}' } }, { extraBody: { top_k: 5 }, samplingOverrides: { temperature: 1, top_p: 1, top_k: -1 } });
    assert.deepEqual([out['temperature'], out['top_p'], out['top_k']], [1, 1, -1]);
  });

  it('asks for token ids in training mode and requires n = 1', () => {
    const out = prepare({ messages: USER, top_logprobs: 5 }, { returnTokenIdInformation: true });
    assert.deepEqual([out['logprobs'], out['top_logprobs'], out['return_tokens_as_token_ids'], 'return_token_ids' in out], [true, 0, true, false]);
    assert.equal(prepare({ messages: USER }, { returnTokenIdInformation: true, requestPromptAndGenerationTokenIds: true })['return_token_ids'], true);
    assert.throws(() => prepare({ messages: USER, n: 2 }, { returnTokenIdInformation: true }), { statusCode: 400, message: /n = 1/ });
    assert.throws(() => prepare({ messages: USER }, { returnTokenIdInformation: true, samplingOverrides: { n: 4 } }), { message: /n = 1/ });
  });

  it('refuses the audio metadata side channel instead of ignoring it', () => {
    assert.throws(() => prepare({ messages: USER, metadata: { audio_path: 'a.wav' } }), { statusCode: 400, message: /metadata\.audio_path/ });
  });

  it('drops a null top_logprobs', () => {
    assert.equal('top_logprobs' in prepare({ messages: USER, top_logprobs: null }), false);
  });

  it('strips strict from function tools', () => {
    const out = prepare({ messages: USER, tools: [{ type: 'function', function: { name: 'f', parameters: {}, strict: true } }] });
    assert.deepEqual(out['tools'], [{ type: 'function', function: { name: 'f', parameters: {} } }]);
  });

  it('moves <think> of assistant history into reasoning fields with interleaved reasoning', () => {
    const messages = [...USER, { role: 'assistant', content: '<think>plan</think>answer' }, { role: 'assistant', content: [{ type: 'text', text: '<think>p2</think>a2' }] }];
    const out = prepare({ messages })['messages'] as Array<Record<string, unknown>>;
    assert.deepEqual(out[1], { role: 'assistant', content: 'answer', reasoning_content: 'plan', reasoning: 'plan' });
    assert.deepEqual(out[2], { role: 'assistant', content: [{ type: 'text', text: 'a2' }], reasoning_content: 'p2', reasoning: 'p2' });
  });

  it('drops history reasoning without interleaving, and keeps it with preserve or without a parser', () => {
    const messages = [{ role: 'assistant', content: '<think>plan</think>answer' }];
    assert.deepEqual((prepare({ messages }, { usesInterleavedReasoning: false })['messages'] as unknown[])[0], { role: 'assistant', content: 'answer' });
    assert.deepEqual((prepare({ messages }, { preserveReasoningInAssistantContent: true })['messages'] as unknown[])[0], messages[0]);
    assert.deepEqual((prepare({ messages }, { usesReasoningParser: false })['messages'] as unknown[])[0], messages[0]);
  });

  it('rejects reasoning in two parts of one assistant message', () => {
    const messages = [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: '<think>a</think>' },
          { type: 'text', text: '<think>b</think>' },
        ],
      },
    ];
    assert.throws(() => prepare({ messages }), { message: /more than one content part/ });
  });
});

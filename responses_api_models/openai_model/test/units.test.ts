import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseOpenAIModelConfig } from '../config.js';
import { dropReasoningItems, withExtraBodyAndModel } from '../pass-through.js';
import { redactError, redactText } from '@gym/server';
import { Semaphore } from '../semaphore.js';
import { GymUpstreamError } from '@gym/server';

const FIELDS = { entrypoint: 'app.ts', openai_base_url: 'https://api.openai.com/v1', openai_api_key: 'sk-abcdef', openai_model: 'gpt-4.1' };

describe('openai_model config', () => {
  it('applies defaults and takes the drop default from POLICY_DROP_REASONING_ITEMS', () => {
    const config = parseOpenAIModelConfig(FIELDS, 'policy_model', {});
    assert.deepEqual(config, {
      openaiBaseUrl: FIELDS.openai_base_url,
      openaiApiKey: 'sk-abcdef',
      openaiModel: 'gpt-4.1',
      defaultHeaders: {},
      extraBody: {},
      maxConcurrentRequests: null,
      dropInputReasoningItems: false,
      propagateTraceparent: true,
      propagateBaggage: false,
    });
    assert.deepEqual(parseOpenAIModelConfig({ ...FIELDS, propagate_traceparent: 'false', propagate_baggage: true }, 'p', {}), { ...config, propagateTraceparent: false, propagateBaggage: true });
    assert.equal(parseOpenAIModelConfig(FIELDS, 'p', { POLICY_DROP_REASONING_ITEMS: '1' }).dropInputReasoningItems, true);
    assert.equal(parseOpenAIModelConfig({ ...FIELDS, drop_input_reasoning_items: 'false' }, 'p', { POLICY_DROP_REASONING_ITEMS: 'true' }).dropInputReasoningItems, false);
  });

  it('names the bad fields, never the values', () => {
    assert.throws(
      () => parseOpenAIModelConfig({ ...FIELDS, openai_api_key: 42, max_concurrent_requests: 'many' }, 'policy_model', {}),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'GYM_MODEL_CONFIG_INVALID');
        assert.match(error.message, /'policy_model'.*openai_api_key.*max_concurrent_requests/);
        assert.equal(error.message.includes('many'), false);
        return true;
      },
    );
  });
});

describe('openai_model body rewrites', () => {
  it('puts extra_body underneath and forces the model', () => {
    assert.deepEqual(withExtraBodyAndModel({ a: 1, model: 'x' }, { a: 2, b: 3 }, 'm'), { a: 1, b: 3, model: 'm' });
  });

  it('drops only reasoning items from a list input', () => {
    assert.deepEqual(dropReasoningItems({ input: [{ type: 'reasoning' }, { role: 'user', content: 'q' }] }), { input: [{ role: 'user', content: 'q' }] });
    assert.deepEqual(dropReasoningItems({ input: 'text' }), { input: 'text' });
  });
});

describe('redaction', () => {
  it('replaces secrets in text and in errors, keeping errors without secrets as they are', () => {
    assert.equal(redactText('key sk-abcdef here', ['sk-abcdef', '']), 'key [REDACTED] here');
    const clean = new GymUpstreamError('GYM_X', 'nothing secret');
    assert.equal(redactError(clean, ['sk-abcdef']), clean);
    const leaky = redactError(new GymUpstreamError('GYM_X', 'bad key sk-abcdef'), ['sk-abcdef']) as GymUpstreamError;
    assert.deepEqual([leaky.code, leaky.message], ['GYM_X', 'bad key [REDACTED]']);
  });
});

describe('Semaphore', () => {
  it('runs at most limit tasks at once, in FIFO order', async () => {
    const semaphore = new Semaphore(2);
    const order: number[] = [];
    const gates = [0, 1, 2, 3].map(() => deferred());
    const tasks = gates.map((gate, i) => semaphore.run(async () => (order.push(i), gate.promise)));
    await new Promise(setImmediate);
    assert.deepEqual([order, semaphore.waiting], [[0, 1], 2]);
    gates[1]!.resolve();
    await tasks[1];
    await new Promise(setImmediate);
    assert.deepEqual(order, [0, 1, 2]);
    gates.forEach((g) => g.resolve());
    await Promise.all(tasks);
    assert.deepEqual(order, [0, 1, 2, 3]);
    assert.throws(() => new Semaphore(0), RangeError);
  });
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

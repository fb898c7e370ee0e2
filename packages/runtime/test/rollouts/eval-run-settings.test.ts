import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { defaultOutputPath, evalRunSettings } from '../../src/cli/commands/eval-run-settings.js';

describe('evalRunSettings', () => {
  it('prefers flags over the original collection keys', () => {
    const s = evalRunSettings(
      { concurrency: '8', temperature: '0.5' },
      { num_samples_in_parallel: 2, num_repeats: 3, num_repeats_add_seed: true, agent_name: 'a', responses_create_params: { top_p: 0.9 } },
    );
    assert.equal(s.concurrency, 8);
    assert.equal(s.numRepeats, 3);
    assert.equal(s.addSeed, true);
    assert.equal(s.agent, 'a');
    assert.deepEqual(s.paramOverrides, { top_p: 0.9, temperature: 0.5 });
  });

  it('rejects non-positive or fractional counts', () => {
    assert.throws(() => evalRunSettings({ concurrency: '0' }, {}), { code: 'GYM_ROLLOUT_BAD_FLAG' });
    assert.throws(() => evalRunSettings({ numRepeats: '1.5' }, {}), { code: 'GYM_ROLLOUT_BAD_FLAG' });
  });

  it("reads the original's num_repeats dict from the flag or the key, and +prompt_config / +split", () => {
    assert.deepEqual(evalRunSettings({ numRepeats: '{a:4,_default: 1}' }, {}).numRepeats, { a: 4, _default: 1 });
    assert.deepEqual(evalRunSettings({}, { num_repeats: { b: 2 } }).numRepeats, { b: 2 });
    assert.throws(
      () => evalRunSettings({}, { num_repeats: { b: 0 } }),
      (e: Error & { code: string }) => e.code === 'GYM_ROLLOUT_BAD_FLAG' && /entry 'b'/.test(e.message),
    );
    assert.throws(() => evalRunSettings({ numRepeats: '{a: [' }, {}), { code: 'GYM_ROLLOUT_BAD_FLAG' });
    const s = evalRunSettings({}, { prompt_config: 'prompts/p.yaml', split: 'benchmark' });
    assert.equal(s.promptConfig, 'prompts/p.yaml');
    assert.equal(s.split, 'benchmark');
    assert.equal(evalRunSettings({ split: 'train', promptConfig: 'x.yaml' }, { split: 'benchmark' }).split, 'train');
    assert.throws(
      () => evalRunSettings({ split: 'test' }, {}),
      (e: Error & { code: string }) => e.code === 'GYM_ROLLOUT_BAD_FLAG' && /example, train, validation, benchmark/.test(e.message),
    );
  });

  it('names the default output after the agent and a UTC timestamp', () => {
    assert.equal(defaultOutputPath('ag', new Date('2026-01-02T03:04:05.678Z')), 'results/ag_20260102T030405Z.jsonl');
  });
});

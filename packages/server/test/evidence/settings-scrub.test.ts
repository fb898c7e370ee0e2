// The evidence switches and the capture scrubber.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readEvidenceSettings } from '../../src/evidence/settings.js';
import { REDACTED } from '../../src/config/redact.js';
import { scrubCaptureSecrets } from '../../src/evidence/scrub.js';

describe('readEvidenceSettings', () => {
  it('is off unless observability_enabled is true (a boolean or the override string)', () => {
    assert.deepEqual(readEvidenceSettings({}), { enabled: false });
    assert.deepEqual(readEvidenceSettings({ observability_enabled: false, model_call_capture_dir: '/x' }), { enabled: false });
    assert.deepEqual(readEvidenceSettings({ observability_enabled: 'true', model_call_capture_dir: '/shared/captures' }), { enabled: true, captureDir: '/shared/captures' });
  });

  it('refuses evidence on without an absolute capture directory', () => {
    assert.throws(() => readEvidenceSettings({ observability_enabled: true }), { code: 'GYM_EVIDENCE_CAPTURE_DIR', message: /model_call_capture_dir is not set/ });
    assert.throws(() => readEvidenceSettings({ observability_enabled: true, model_call_capture_dir: 'captures' }), {
      code: 'GYM_EVIDENCE_CAPTURE_DIR',
      message: /must be an absolute path.*'captures'/,
    });
  });
});

describe('scrubCaptureSecrets', () => {
  it('replaces credential-like keys and key-like strings at any depth, and keeps the rest', () => {
    const body = {
      model: 'gpt',
      api_key: 'anything',
      metadata: { Authorization: 'Bearer abc.def', note: 'sk-proj-abcdefghijklmnop1234' },
      input: [{ role: 'user', content: 'my token count is 12' }],
      max_output_tokens: 64,
      usage: { total_tokens: 10 },
    };
    const scrubbed = scrubCaptureSecrets(body) as typeof body;
    assert.equal(scrubbed.api_key, REDACTED);
    assert.equal(scrubbed.metadata.Authorization, REDACTED);
    assert.equal(scrubbed.metadata.note, REDACTED);
    assert.deepEqual(scrubbed.input, body.input);
    assert.equal(scrubbed.max_output_tokens, 64);
    assert.deepEqual(scrubbed.usage, { total_tokens: 10 });
    assert.equal(body.api_key, 'anything', 'the input is not changed');
  });
});

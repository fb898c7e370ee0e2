import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { configForServer, ownSecrets, restoreSecrets } from '../../../server/src/config/server-secrets.js';
import { createSecretScrubber, secretValuesOf } from '../../../server/src/config/secret-scrub.js';
import { redactSecrets } from '../../../server/src/config/redact.js';
import { argvSecretWarnings, toLoadConfigOptions } from '../../src/cli/config-options.js';

const TREE = {
  policy_api_key: 'sk-top-level-123456',
  telemetry: { otlp_headers: 'authorization=Bearer collector-token-9' },
  policy_model: { responses_api_models: { openai_model: { openai_api_key: 'sk-top-level-123456', openai_default_headers: { 'x-org-key': 'org-secret-77' }, port: 1 } } },
  judge: { resources_servers: { judge: { judge_api_key: 'judge-key-424242', model_server: { type: 'responses_api_models', name: 'policy_model' } } } },
};

describe('per-server secrets', () => {
  it('gives a server the secrets of its own block and redacts every other one', () => {
    const forJudge = configForServer(TREE, 'judge') as any;
    assert.equal(forJudge.judge.resources_servers.judge.judge_api_key, 'judge-key-424242');
    assert.equal(forJudge.policy_api_key, '[REDACTED]');
    assert.equal(forJudge.telemetry.otlp_headers, '[REDACTED]');
    assert.equal(forJudge.policy_model.responses_api_models.openai_model.openai_api_key, '[REDACTED]');
    assert.equal(forJudge.policy_model.responses_api_models.openai_model.port, 1, 'other fields stay readable');
    assert.deepEqual(Object.keys(forJudge), Object.keys(TREE), 'key order kept');
    assert.equal(TREE.policy_api_key, 'sk-top-level-123456', 'input untouched');
  });

  it('splits own secrets out of a fully redacted tree and puts them back', () => {
    const secrets = ownSecrets(TREE, 'policy_model');
    assert.deepEqual(
      secrets.map((s) => s.path.join('.')),
      ['policy_model.responses_api_models.openai_model.openai_api_key', 'policy_model.responses_api_models.openai_model.openai_default_headers.x-org-key'],
    );
    const tree = redactSecrets(TREE) as any;
    restoreSecrets(tree, JSON.parse(JSON.stringify(secrets)));
    assert.equal(tree.policy_model.responses_api_models.openai_model.openai_api_key, 'sk-top-level-123456');
    assert.equal(tree.judge.resources_servers.judge.judge_api_key, '[REDACTED]');
  });
});

describe('secret scrubbing', () => {
  it('replaces every configured value, URL-encoded and JSON-escaped echoes included', () => {
    const scrub = createSecretScrubber(secretValuesOf({ ...TREE, weird: { api_key: 'a"b/c d+e' } }))!;
    assert.equal(scrub('bad key sk-top-level-123456 for org-secret-77'), 'bad key [REDACTED] for [REDACTED]');
    assert.equal(scrub(`url?key=${encodeURIComponent('a"b/c d+e')}`), 'url?key=[REDACTED]');
    assert.equal(scrub(JSON.stringify({ m: 'a"b/c d+e' })), '{"m":"[REDACTED]"}');
    assert.equal(scrub('max_tokens 12'), 'max_tokens 12');
  });

  it('has no scrubber when no secret is configured, and ignores values too short to scrub', () => {
    assert.equal(createSecretScrubber(secretValuesOf({ max_tokens: 5, api_key: 'abc', token: null })), undefined);
  });
});

describe('keys off the command line', () => {
  it('reads the model key from a file or GYM_MODEL_API_KEY, and warns only about argv keys', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path'); // eslint-disable-line @typescript-eslint/unbound-method -- path.join uses no this
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'gym-key-'));
    try {
      writeFileSync(join(dir, 'key'), '0123456789\n');
      assert.ok(toLoadConfigOptions({ modelApiKeyFile: join(dir, 'key') }, [], dir, {}).overrides!.includes('++policy_api_key="0123456789"'));
      assert.ok(toLoadConfigOptions({}, [], dir, { GYM_MODEL_API_KEY: 'sk-env' }).overrides!.includes('++policy_api_key="sk-env"'));
      assert.throws(() => toLoadConfigOptions({ modelApiKeyFile: join(dir, 'missing') }, [], dir, {}), { code: 'GYM_CLI_KEY_FILE' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.deepEqual(argvSecretWarnings({ modelApiKeyFile: 'k' }, ['++policy_api_key=${oc.env:KEY}', '+max_tokens=5']), []);
    assert.equal(argvSecretWarnings({ modelApiKey: 'sk-x' }, ['++policy_api_key=sk-y']).length, 2);
  });
});

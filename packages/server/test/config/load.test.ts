import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { collectMissingValues, dumpConfigYaml, isSecretKey, loadConfig, redactSecrets, resolveInterpolations } from '../../src/config/index.js';
import { treesRemovedAfter } from './support.js';

const EXAMPLE_RESOURCES_YAML = `example_single_tool_call:
  resources_servers:
    example_single_tool_call:
      entrypoint: app.ts
      domain: agent
      verified: false
      description: Single tool call example (get_weather)
example_single_tool_call_simple_agent:
  responses_api_agents:
    simple_agent:
      entrypoint: app.ts
      resources_server:
        type: resources_servers
        name: example_single_tool_call
      model_server:
        type: responses_api_models
        name: policy_model
      max_steps: 8
      datasets:
        - name: example
          type: example
          jsonl_fpath: resources_servers/example_single_tool_call/data/example.jsonl
`;

const SIMULATED_MODEL_YAML = `policy_model:
  responses_api_models:
    simulated_model:
      entrypoint: app.ts
`;

const tree = treesRemovedAfter();

describe('loadConfig on the example environment', () => {
  it('resolves three servers with every reference satisfied', async () => {
    const rootDir = tree({
      'resources_servers/example_single_tool_call/configs/example_single_tool_call.yaml': EXAMPLE_RESOURCES_YAML,
      'responses_api_models/simulated_model/configs/simulated_model.yaml': SIMULATED_MODEL_YAML,
    });
    const c = await loadConfig({
      rootDir,
      selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] },
      env: {},
    });
    assert.deepEqual(
      c.servers.map((s) => [s.instanceName, s.serverType, s.implementation]),
      [
        ['example_single_tool_call', 'resources_servers', 'example_single_tool_call'],
        ['example_single_tool_call_simple_agent', 'responses_api_agents', 'simple_agent'],
        ['policy_model', 'responses_api_models', 'simulated_model'],
      ],
    );
    const agent = c.servers[1]!;
    assert.deepEqual(agent.config['model_server'], { type: 'responses_api_models', name: 'policy_model' });
    assert.equal(agent.config['max_steps'], 8);
    assert.equal(new Set(c.servers.map((s) => s.port)).size, 3);
    assert.ok(c.servers.every((s) => s.host === '127.0.0.1'));
    assert.deepEqual(c.head, { host: '127.0.0.1', port: 11000 });
    assert.equal(c.telemetry, undefined);
    assert.equal(c.sources.length, 2);
    assert.deepEqual(c.warnings, []);
  });

  it('returns the telemetry block and copies skip_verification into agents', async () => {
    const rootDir = tree({
      'a.yaml': `${EXAMPLE_RESOURCES_YAML}${SIMULATED_MODEL_YAML}telemetry: {enabled: true, exporter: console}\nskip_verification: true\n`,
    });
    const c = await loadConfig({ rootDir, selectors: { configs: ['a.yaml'] }, env: {}, probePorts: false });
    assert.deepEqual(c.telemetry, { enabled: true, exporter: 'console' });
    assert.equal(c.servers.length, 3);
    assert.equal(c.servers[1]!.config['skip_verification'], true);
    assert.equal(c.servers[0]!.config['skip_verification'], undefined);
  });
});

describe('??? detection', () => {
  it('reports every unset value in one error, with its file and how to set it', async () => {
    const rootDir = tree({
      'a.yaml': 'policy_base_url: ???\nm:\n  key: ???\n  ok: 1\nlist: [a, ???]\n',
    });
    await assert.rejects(loadConfig({ rootDir, selectors: { configs: ['a.yaml'] }, env: {} }), (err: Error & { code: string; paths: string[] }) => {
      assert.equal(err.code, 'GYM_CONFIG_MISSING_VALUE');
      assert.deepEqual(err.paths, ['policy_base_url', 'm.key', 'list[1]']);
      assert.match(err.message, /3 required config value\(s\) are unset/);
      assert.match(err.message, /- m\.key \(from .*a\.yaml\)/);
      assert.match(err.message, /\+\+policy_base_url=<value>/);
      return true;
    });
  });

  it('counts a value set later in the merge as set', async () => {
    const rootDir = tree({ 'a.yaml': 'policy_api_key: ???\n', 'env.yaml': 'policy_api_key: sk-123\n' });
    const c = await loadConfig({ rootDir, selectors: { configs: ['a.yaml'] }, env: {} });
    assert.equal(c.raw['policy_api_key'], 'sk-123');
  });

  it('reports ??? reached through an interpolation at both places', () => {
    const resolved = resolveInterpolations({ a: '???', b: '${a}', c: { d: 1 } }, { env: {} });
    assert.deepEqual(collectMissingValues(resolved), ['a', 'b']);
  });
});

describe('redactSecrets and dumpConfigYaml', () => {
  it('recognises secret-looking keys by their last word, case-insensitively', () => {
    for (const k of ['api_key', 'policy_api_key', 'OPENAI_API_KEY', 'hf_token', 'clientSecret', 'password', 'Authorization', 'cookie', 'otlp_headers', 'apikey']) {
      assert.ok(isSecretKey(k), k);
    }
    for (const k of ['max_tokens', 'token_ids', 'secret_name', 'keyboard', 'name', 'max_output_tokens']) {
      assert.ok(!isSecretKey(k), k);
    }
  });

  it('replaces secret values at any depth and leaves the input untouched', () => {
    const input = { policy_api_key: 'sk-1', m: { inner: { wandb_api_key: 'w', max_tokens: 10 }, tokens: [{ access_token: 't' }] }, cookies: ['a', 'b'], hf_token: null };
    const out = redactSecrets(input);
    assert.deepEqual(out, {
      policy_api_key: '[REDACTED]',
      m: { inner: { wandb_api_key: '[REDACTED]', max_tokens: 10 }, tokens: [{ access_token: '[REDACTED]' }] },
      cookies: ['[REDACTED]', '[REDACTED]'],
      hf_token: null,
    });
    assert.equal(input.policy_api_key, 'sk-1');
  });

  it('dumps YAML that parses back to the same tree', () => {
    const t = { a: { b: [1, 'two', { c: true }] }, s: 'yes', n: null, long: 'x'.repeat(200) };
    assert.deepEqual(parse(dumpConfigYaml(t)), t);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyDirectives } from '../../src/config/directives.js';
import { loadConfig } from '../../src/config/index.js';
import { unimplementedSettingWarnings } from '../../src/config/unimplemented-settings.js';
import { treesRemovedAfter } from './support.js';

const tree = treesRemovedAfter();

const MODEL = `policy_model:
  responses_api_models:
    simulated_model:
      entrypoint: app.ts
`;

describe('the original directives', () => {
  it('${inherit_from:…} moves the source subtree here (the source is gone)', () => {
    const out = applyDirectives({ generic: { a: 1, b: { c: 2 } }, mine: '${inherit_from:generic}', other: 'x' });
    assert.deepEqual(out, { mine: { a: 1, b: { c: 2 } }, other: 'x' });
  });

  it('_inherit_from takes the source and lays the local keys over it, deeply', () => {
    const out = applyDirectives({
      generic: { responses_api_models: { openai_model: { entrypoint: 'app.ts', openai_model: 'gpt-4o', timeout: 5 } } },
      judge: { _inherit_from: 'generic', responses_api_models: { openai_model: { openai_model: 'gpt-5' } } },
    });
    assert.deepEqual(out, { judge: { responses_api_models: { openai_model: { entrypoint: 'app.ts', openai_model: 'gpt-5', timeout: 5 } } } });
  });

  it('${copy:…} and _copy copy without removing the source; a dotted path reaches inside', () => {
    const out = applyDirectives({
      base: { params: { temperature: 0.2, top_p: 1 } },
      a: '${copy:base.params}',
      b: { _copy: 'base.params', top_p: 0.5 },
    });
    assert.deepEqual(out, { base: { params: { temperature: 0.2, top_p: 1 } }, a: { temperature: 0.2, top_p: 1 }, b: { temperature: 0.2, top_p: 0.5 } });
  });

  it('_delete_key drops listed keys, including keys that arrive with the inherited source', () => {
    const out = applyDirectives({
      generic: { keep: 1, drop_me: 2, also: 3 },
      mine: { _inherit_from: 'generic', _delete_key: 'drop_me, local', local: 'x' },
      plain: { a: 1, b: 2, _delete_key: 'b' },
    });
    assert.deepEqual(out, { mine: { keep: 1, also: 3 }, plain: { a: 1 } });
  });

  it('applies directives inside lists of maps, and inside what was inherited', () => {
    const out = applyDirectives({
      shared: { x: 1 },
      tpl: { inner: '${copy:shared}' },
      list: [{ _copy: 'shared', y: 2 }],
      mine: '${inherit_from:tpl}',
    });
    assert.deepEqual(out, { shared: { x: 1 }, list: [{ x: 1, y: 2 }], mine: { inner: { x: 1 } } });
  });

  it('follows a copy of a block that itself inherits', () => {
    const out = applyDirectives({ generic: { a: 1 }, first: '${inherit_from:generic}', second: { _copy: 'first', b: 2 } });
    assert.deepEqual(out, { first: { a: 1 }, second: { a: 1, b: 2 } });
  });

  it('names the directive and the missing path, and a _delete_key naming a key the source lacks', () => {
    assert.throws(
      () => applyDirectives({ src: { k: 1 }, a: '${inherit_from:nope.deep}', b: { _copy: 'src', _delete_key: 'zz' } }),
      (err: Error & { code: string }) => {
        assert.equal(err.code, 'GYM_CONFIG_INVALID');
        assert.match(err.message, /a: inherit_from names 'nope\.deep', which is not in the merged config/);
        assert.match(err.message, /b: _delete_key names 'zz', which the block does not have/);
        return true;
      },
    );
  });

  it('a config using every directive loads to the expected servers and tree', async () => {
    const rootDir = tree({
      'env.yaml': 'judge_url: http://judge.invalid/v1\n',
      'a.yaml': `${MODEL}generic_judge:
  responses_api_models:
    simulated_model:
      entrypoint: app.ts
      latency_ms: 5
      note: template
judge_a: \${inherit_from:generic_judge}
judge_b:
  responses_api_models:
    simulated_model:
      _copy: generic_judge.responses_api_models.simulated_model
      _delete_key: note
      latency_ms: 7
      base: \${judge_url}
`,
    });
    const c = await loadConfig({ rootDir, selectors: { configs: ['a.yaml'] }, env: {}, probePorts: false });
    assert.deepEqual(
      c.servers.map((s) => s.instanceName),
      ['policy_model', 'judge_a', 'judge_b'],
    );
    assert.equal(c.raw['generic_judge'], undefined);
    const a = c.servers[1]!.config;
    const b = c.servers[2]!.config;
    assert.equal(a['latency_ms'], 5);
    assert.equal(a['note'], 'template');
    assert.equal(b['latency_ms'], 7);
    assert.equal(b['note'], undefined);
    assert.equal(b['base'], 'http://judge.invalid/v1');
  });

  it('a CLI override can make a server inherit from another, as the original suggests', async () => {
    const rootDir = tree({ 'a.yaml': MODEL });
    const c = await loadConfig({
      rootDir,
      selectors: { configs: ['a.yaml'] },
      overrides: ['++second_model=${inherit_from:policy_model}'],
      env: {},
      probePorts: false,
    });
    assert.deepEqual(
      c.servers.map((s) => s.instanceName),
      ['second_model'],
    );
  });
});

// the shape of the original's recipe env.yaml.example, in our own words: judge blocks with no
// entrypoint, merged over benchmark configs that may or may not define those servers
const RECIPE_ENV_YAML = `policy_base_url: http://localhost:8000/v1
policy_api_key: \${oc.env:POLICY_KEY}
policy_model_name: my-model
responses_create_params:
  temperature: 1.0
  top_p: 0.95
judge_url: "http://judge.invalid/v1"
judge_key: \${oc.env:JUDGE_KEY,""}
judge_model:
  responses_api_models:
    openai_model:
      openai_base_url: \${judge_url}
      openai_model: judge-large
      openai_api_key: \${judge_key}
panel-judge-2026_03:
  responses_api_models:
    vllm_model:
      base_url: \${judge_url}
      api_key: \${judge_key}
wandb_project: my-project
wandb_api_key: \${oc.env:WANDB_KEY,""}
`;

describe("the original's recipe env.yaml", () => {
  it('loads: its server-shaped blocks without an entrypoint are not started, and one warning names them', async () => {
    const rootDir = tree({ 'env.yaml': RECIPE_ENV_YAML, 'a.yaml': MODEL });
    const c = await loadConfig({ rootDir, selectors: { configs: ['a.yaml'] }, env: { POLICY_KEY: 'sk-test' }, probePorts: false });
    assert.deepEqual(
      c.servers.map((s) => s.instanceName),
      ['policy_model'],
    );
    const notStarted = c.warnings.filter((w) => w.startsWith('Not starting'));
    assert.equal(notStarted.length, 1);
    assert.match(notStarted[0]!, /judge_model, panel-judge-2026_03/);
    const wandb = c.warnings.find((w) => w.includes('wandb_project'));
    assert.ok(wandb !== undefined, c.warnings.join('\n'));
    assert.match(wandb, /accepted but not implemented in gym \(metrics are not exported to Weights & Biases\)/);
    // the empty-default key asks for nothing; a secret value never appears in a warning
    assert.doesNotMatch(wandb, /wandb_api_key/);
    assert.ok(!c.warnings.some((w) => w.includes('sk-test')));
  });

  it('its blocks complete the servers a benchmark config defines, and those start', async () => {
    const rootDir = tree({
      'env.yaml': RECIPE_ENV_YAML,
      'bench.yaml': `${MODEL}judge_model:
  responses_api_models:
    openai_model:
      entrypoint: app.ts
      openai_model: overridden-by-env
`,
    });
    const c = await loadConfig({ rootDir, selectors: { configs: ['bench.yaml'] }, env: { POLICY_KEY: 'k' }, probePorts: false });
    assert.deepEqual(
      c.servers.map((s) => s.instanceName),
      ['policy_model', 'judge_model'],
    );
    assert.equal(c.servers[1]!.config['openai_model'], 'judge-large');
    assert.equal(c.servers[1]!.config['openai_base_url'], 'http://judge.invalid/v1');
    assert.match(
      c.warnings.find((w) => w.startsWith('Not starting'))!,
      /^Not starting panel-judge-2026_03:/,
    );
  });
});

describe('settings gym accepts but does not implement', () => {
  it('are named in a warning when set, and pass silently when off', () => {
    const warnings = unimplementedSettingWarnings({
      rollout_collection_driver: 'mod:fn',
      upload_rollouts: false,
      dry_run: true,
      mlflow_tracking_uri: null,
      skills: { path: 'skills/' },
    });
    assert.equal(warnings.length, 3);
    assert.match(warnings[0]!, /^rollout_collection_driver: accepted but not implemented in gym/);
    assert.match(warnings[1]!, /^skills: /);
    assert.match(warnings[2]!, /^dry_run: /);
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkServerRefs, closeMatches, findServerRefs, levenshtein, loadConfig } from '../../src/config/index.js';
import type { ReferenceTarget } from '../../src/config/index.js';
import { tempTree } from './support.js';
import type { TempTree } from './support.js';

const server = (instanceName: string, serverType: ReferenceTarget['serverType'], config: Record<string, unknown> = {}): ReferenceTarget => ({
  instanceName,
  serverType,
  config,
});

function rejectsRef(fn: () => unknown, ...patterns: RegExp[]): void {
  assert.throws(fn, (err: Error & { code: string }) => {
    assert.equal(err.code, 'GYM_CONFIG_UNKNOWN_REFERENCE');
    for (const p of patterns) assert.match(err.message, p);
    return true;
  });
}

describe('suggestions', () => {
  it('computes edit distances', () => {
    assert.equal(levenshtein('kitten', 'sitting'), 3);
    assert.equal(levenshtein('', 'abc'), 3);
    assert.equal(levenshtein('same', 'same'), 0);
  });

  it('returns close names first and nothing for unrelated ones', () => {
    assert.deepEqual(closeMatches('polcy_model', ['judge_model', 'policy_model', 'policy_models']), ['policy_model', 'policy_models']);
    assert.deepEqual(closeMatches('xyz', ['policy_model']), []);
  });
});

describe('server references', () => {
  const servers = [
    server('weather', 'resources_servers'),
    server('policy_model', 'responses_api_models'),
    server('agent', 'responses_api_agents', {
      resources_server: { type: 'resources_servers', name: 'weather' },
      model_server: { type: 'responses_api_models', name: 'policy_model' },
      nested: { list: [{ type: 'resources_servers', name: 'weather' }] },
      not_a_ref: { type: 'something_else', name: 'x' },
    }),
  ];

  it('finds references at any depth and ignores maps whose type is not a server type', () => {
    assert.deepEqual(
      findServerRefs(servers).map((r) => r.field),
      ['resources_server', 'model_server', 'nested.list[0]'],
    );
  });

  it('accepts references to declared instances', () => {
    checkServerRefs(servers);
  });

  it('suggests a close name for a typo', () => {
    const bad = [...servers, server('agent2', 'responses_api_agents', { model_server: { type: 'responses_api_models', name: 'polcy_model' } })];
    rejectsRef(() => checkServerRefs(bad), /server instance 'agent2', field 'model_server' references responses_api_models\/'polcy_model'/, /Did you mean 'policy_model'\?/);
  });

  it('lists the declared instances when nothing is close', () => {
    const bad = [...servers, server('agent2', 'responses_api_agents', { resources_server: { type: 'resources_servers', name: 'zzz' } })];
    rejectsRef(() => checkServerRefs(bad), /Declared resources_servers instances: weather\./);
  });

  it('reports a reference whose name exists under another type', () => {
    const bad = [...servers, server('agent2', 'responses_api_agents', { resources_server: { type: 'resources_servers', name: 'policy_model' } })];
    rejectsRef(() => checkServerRefs(bad), /'policy_model' is a responses_api_models instance/);
  });

  it('reports every broken reference in one error', () => {
    const bad = [
      server('a', 'responses_api_agents', {
        r: { type: 'resources_servers', name: 'nope1' },
        m: { type: 'responses_api_models', name: 'nope2' },
      }),
    ];
    rejectsRef(() => checkServerRefs(bad), /2 server references are broken/, /nope1/, /nope2/);
  });
});

describe('loadConfig references', () => {
  const trees: TempTree[] = [];
  after(() => trees.forEach((t) => t.cleanup()));

  it('rejects an agent referring to a misspelt model instance', async () => {
    const t = tempTree({
      'a.yaml': [
        'policy_model:',
        '  responses_api_models:',
        '    simulated_model: {entrypoint: app.ts}',
        'agent:',
        '  responses_api_agents:',
        '    simple_agent:',
        '      entrypoint: app.ts',
        '      model_server: {type: responses_api_models, name: policy_modle}',
      ].join('\n'),
    });
    trees.push(t);
    await assert.rejects(loadConfig({ rootDir: t.dir, selectors: { configs: ['a.yaml'] }, env: {}, probePorts: false }), /Did you mean 'policy_model'\?/);
  });
});

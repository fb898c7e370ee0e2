// `gym env validate` checks each server's own settings against the `configSchema` its entrypoint
// exports: wrong types and unknown keys by key path, with the close declared names.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { checkServerConfig, isServerConfigSchema } from '../../../server/src/protocol/server-config.js';
import { runGym } from '../support/gym-process.js';
import type { ServerInstanceConfig } from '../../../server/src/config/types.js';

const MODEL = ['--resources-server', 'mcqa', '--model-type', 'simulated_model'];

function instance(config: Record<string, unknown>): ServerInstanceConfig {
  return { instanceName: 'judge', serverType: 'resources_servers', implementation: 'grader', config: { entrypoint: 'app.ts', host: '127.0.0.1', port: 1, ...config }, host: '127.0.0.1', port: 1 };
}

describe('checkServerConfig', () => {
  const schema = z.looseObject({ max_steps: z.number().int().positive().nullable().default(null), mode: z.enum(['a', 'b']).default('a') });

  it('accepts declared fields and the fields every server block carries', () => {
    assert.deepEqual(checkServerConfig(instance({ max_steps: 3, domain: 'math', verified: false, description: 'd', value: 'v', datasets: [], num_workers: 2 }), schema), []);
  });

  it('reports a wrong type and an unknown key by their key paths, with the close declared name', () => {
    assert.deepEqual(checkServerConfig(instance({ max_steps: 'many', mdoe: 'b', colour: 'red' }), schema), [
      { path: 'judge.resources_servers.grader.max_steps', message: 'Invalid input: expected number, received string' },
      { path: 'judge.resources_servers.grader.mdoe', message: "not a setting of grader; did you mean 'mode'?" },
      { path: 'judge.resources_servers.grader.colour', message: "not a setting of grader; its settings are 'max_steps', 'mode'" },
    ]);
  });

  it('tells a zod object schema from anything else an entrypoint might export under the name', () => {
    assert.equal(isServerConfigSchema(schema), true);
    assert.equal(isServerConfigSchema(z.string()), false);
    assert.equal(isServerConfigSchema({ grading_mode: 'x' }), false);
  });
});

describe('gym env validate with declared server settings', () => {
  const root = mkdtempSync(join(tmpdir(), 'gym-declared-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("passes our environments' own configs", async () => {
    const { code, stdout, stderr } = await runGym(['env', 'validate', ...MODEL]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /config is valid: 3 servers/);
  });

  it('reports every setting that does not fit, in one error, and exits 2', async () => {
    const { code, stderr } = await runGym([
      'env',
      'validate',
      ...MODEL,
      '++mcqa.resources_servers.mcqa.grading_mod=lenient_boxed',
      '++mcqa_simple_agent.responses_api_agents.simple_agent.max_steps=-1',
    ]);
    assert.equal(code, 2);
    assert.match(stderr, /2 server setting\(s\) do not fit what the server declares/);
    assert.match(stderr, /- mcqa\.resources_servers\.mcqa\.grading_mod: not a setting of mcqa; did you mean 'grading_mode'\?/);
    assert.match(stderr, /- mcqa_simple_agent\.responses_api_agents\.simple_agent\.max_steps: Too small/);
  });

  it('reports an entrypoint that cannot be imported, and leaves servers that declare nothing unchecked', async () => {
    for (const [impl, source] of [
      ['broken', "throw new Error('missing dependency foo');\n"],
      ['undeclared', 'export default () => undefined;\n'],
    ] as const) {
      mkdirSync(join(root, 'resources_servers', impl), { recursive: true });
      writeFileSync(join(root, 'resources_servers', impl, 'app.ts'), source);
    }
    const config = join(root, 'servers.yaml');
    writeFileSync(
      config,
      [
        'broken:',
        '  resources_servers:',
        '    broken:',
        '      entrypoint: app.ts',
        '      domain: other',
        'undeclared:',
        '  resources_servers:',
        '    undeclared:',
        '      entrypoint: app.ts',
        '      domain: other',
        '      anything: 1',
        '',
      ].join('\n'),
    );
    const { code, stderr } = await runGym(['env', 'validate', '--config', config, '--search-dir', root]);
    assert.equal(code, 2);
    assert.match(stderr, /- broken\.resources_servers\.broken\.entrypoint: could not be loaded to check its settings: missing dependency foo/);
    assert.doesNotMatch(stderr, /undeclared/);
  });
  it("checks the model servers' settings too, from an original config naming app.py (gym's app.ts port runs)", async () => {
    const config = join(root, 'policy.yaml');
    writeFileSync(
      config,
      [
        'policy_model:',
        '  responses_api_models:',
        '    vllm_model:',
        '      entrypoint: app.py',
        '      base_url: http://127.0.0.1:1/v1',
        '      api_key: x',
        '      model: m',
        '      retrun_token_id_information: true',
        '',
      ].join('\n'),
    );
    const { code, stdout, stderr } = await runGym(['env', 'validate', '--config', config]);
    assert.equal(code, 2, stdout);
    assert.match(stderr, /- policy_model\.responses_api_models\.vllm_model\.retrun_token_id_information: not a setting of vllm_model; did you mean 'return_token_id_information'\?/);
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { delimiter, join } from 'node:path';
import { configPathsFromSelectors, loadConfig, searchRoots } from '../../src/config/index.js';
import { tempTree } from './support.js';

const repo = tempTree({
  'resources_servers/example_single_tool_call/configs/example_single_tool_call.yaml': 'a: 1\n',
  'resources_servers/example_single_tool_call/configs/hard.yaml': 'a: 2\n',
  'resources_servers/math_with_judge/configs/math_with_judge.yaml': 'b: 1\n',
  'responses_api_models/simulated_model/configs/simulated_model.yaml': 'c: 1\n',
  'benchmarks/aime24/config.yaml': 'd: 1\n',
  'my/own.yaml': 'e: 1\n',
});
const extra = tempTree({
  'resources_servers/extra_env/configs/extra_env.yaml': 'x: 1\n',
  'resources_servers/math_with_judge/configs/math_with_judge.yaml': 'shadow: 1\n',
});
after(() => {
  repo.cleanup();
  extra.cleanup();
});
const rootDir = repo.dir;

function rejectsNotFound(fn: () => unknown, ...patterns: RegExp[]): void {
  assert.throws(fn, (err: Error & { code: string }) => {
    assert.equal(err.code, 'GYM_CONFIG_FILE_NOT_FOUND');
    for (const p of patterns) assert.match(err.message, p);
    return true;
  });
}

describe('configPathsFromSelectors', () => {
  it('maps each selector to its config file, in a fixed order with --config last', () => {
    const paths = configPathsFromSelectors({ configs: ['my/own.yaml'], modelTypes: ['simulated_model'], resourcesServers: ['example_single_tool_call'], benchmarks: ['aime24'] }, { rootDir });
    assert.deepEqual(paths, [
      join(rootDir, 'resources_servers/example_single_tool_call/configs/example_single_tool_call.yaml'),
      join(rootDir, 'responses_api_models/simulated_model/configs/simulated_model.yaml'),
      join(rootDir, 'benchmarks/aime24/config.yaml'),
      join(rootDir, 'my/own.yaml'),
    ]);
  });

  it('picks a flavor with name/flavor', () => {
    assert.deepEqual(configPathsFromSelectors({ resourcesServers: ['example_single_tool_call/hard'] }, { rootDir }), [join(rootDir, 'resources_servers/example_single_tool_call/configs/hard.yaml')]);
  });

  it('looks in search dirs before the root dir', () => {
    const roots = searchRoots(rootDir, [extra.dir]);
    assert.deepEqual(configPathsFromSelectors({ resourcesServers: ['extra_env', 'math_with_judge'] }, { rootDir, searchDirs: roots }), [
      join(extra.dir, 'resources_servers/extra_env/configs/extra_env.yaml'),
      join(extra.dir, 'resources_servers/math_with_judge/configs/math_with_judge.yaml'),
    ]);
  });

  it('names a missing server, suggests the closest and lists what exists', () => {
    rejectsNotFound(
      () => configPathsFromSelectors({ resourcesServers: ['example_single_tool'] }, { rootDir }),
      /--resources-server example_single_tool implies config resources_servers\/example_single_tool\/configs\/example_single_tool\.yaml, which does not exist/,
      /Available in resources_servers\/: example_single_tool_call, math_with_judge/,
      /Did you mean 'example_single_tool_call'\?/,
    );
  });

  it('suggests flavors when the server exists but the flavor does not', () => {
    rejectsNotFound(
      () => configPathsFromSelectors({ resourcesServers: ['example_single_tool_call/hrd'] }, { rootDir }),
      /Available in resources_servers\/example_single_tool_call\/configs\/: example_single_tool_call, hard/,
      /Did you mean 'hard'\?/,
    );
  });

  it('says so when the selector directory does not exist at all', () => {
    rejectsNotFound(() => configPathsFromSelectors({ modelTypes: ['vllm_model'] }, { rootDir: extra.dir }), /No responses_api_models\/ directory has any entries/);
  });

  it('lists every place tried for a missing --config', () => {
    rejectsNotFound(
      () => configPathsFromSelectors({ configs: ['nope.yaml'] }, { rootDir, searchDirs: [extra.dir, rootDir] }),
      new RegExp(`--config nope\\.yaml was not found. Looked in:\\n  - ${join(extra.dir, 'nope.yaml')}\\n  - ${join(rootDir, 'nope.yaml')}`),
    );
  });
});

describe('searchRoots', () => {
  it('orders --search-dir, then NEMO_GYM_EXTRA_ROOTS, then the root dir, without duplicates', () => {
    const roots = searchRoots('/r', ['s1', '/abs'], { NEMO_GYM_EXTRA_ROOTS: ['/e1', '', '/abs'].join(delimiter) });
    assert.deepEqual(roots, ['/r/s1', '/abs', '/e1', '/r']);
  });
});

describe('loadConfig selectors', () => {
  it('reads NEMO_GYM_EXTRA_ROOTS from the injected env', async () => {
    const c = await loadConfig({ rootDir, selectors: { resourcesServers: ['extra_env'] }, env: { NEMO_GYM_EXTRA_ROOTS: extra.dir } });
    assert.equal(c.raw['x'], 1);
  });
});

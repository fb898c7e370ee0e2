import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findServerBlocks, RESERVED_TOP_LEVEL_KEYS } from '../../src/config/index.js';
import { Provenance } from '../../src/config/provenance.js';

function rejectsInvalid(fn: () => unknown, ...patterns: RegExp[]): void {
  assert.throws(fn, (err: Error & { code: string }) => {
    assert.equal(err.code, 'GYM_CONFIG_INVALID');
    for (const p of patterns) assert.match(err.message, p);
    return true;
  });
}

const resources = { resources_servers: { example_single_tool_call: { entrypoint: 'app.ts', domain: 'agent' } } };

describe('findServerBlocks', () => {
  it('parses 3-level blocks and keeps implementation-specific fields', () => {
    const { servers } = findServerBlocks({
      weather: resources,
      policy_model: { responses_api_models: { simulated_model: { entrypoint: 'app.ts', port: '8001', latency_ms: 5 } } },
    });
    assert.deepEqual(
      servers.map((s) => [s.instanceName, s.serverType, s.implementation]),
      [
        ['weather', 'resources_servers', 'example_single_tool_call'],
        ['policy_model', 'responses_api_models', 'simulated_model'],
      ],
    );
    assert.equal(servers[1]!.config['port'], 8001);
    assert.equal(servers[1]!.config['latency_ms'], 5);
  });

  it('never treats reserved keys as servers, even when they look like one', () => {
    assert.ok(RESERVED_TOP_LEVEL_KEYS.has('telemetry'));
    assert.ok(RESERVED_TOP_LEVEL_KEYS.has('config_paths'));
    const { servers } = findServerBlocks({
      telemetry: { enabled: true, responses_api_models: { x: {} } },
      head_server: { host: '127.0.0.1', port: 11000 },
      config_paths: ['a.yaml'],
      weather: resources,
    });
    assert.deepEqual(
      servers.map((s) => s.instanceName),
      ['weather'],
    );
  });

  it('ignores non-server global knobs', () => {
    const { servers } = findServerBlocks({ policy_base_url: 'http://x', wandb: { project: 'p' }, list: [1] });
    assert.deepEqual(servers, []);
  });

  it('names the key path, the file and the expectation for a bad field', () => {
    const provenance = new Provenance();
    const tree = { weather: { resources_servers: { impl: { entrypoint: 'app.ts', domain: 'wheather' } } } };
    provenance.recordLayer(tree, 'configs/weather.yaml');
    rejectsInvalid(() => findServerBlocks(tree, provenance), /weather\.resources_servers\.impl\.domain \(from configs\/weather\.yaml\): expected one of math, coding, agent/);
  });

  it('reports every problem of every almost-server (a block with an entrypoint) at once', () => {
    rejectsInvalid(
      () =>
        findServerBlocks({
          two_types: { resources_servers: { r: { entrypoint: 'app.ts' } }, responses_api_models: {} },
          two_impls: { responses_api_models: { a: { entrypoint: 'x' }, b: { entrypoint: 'y' } } },
          bad_port: { responses_api_agents: { simple_agent: { entrypoint: 'app.ts', port: 'eighty' } } },
          empty_entry: { responses_api_agents: { simple_agent: { entrypoint: '' } } },
        }),
      /two_types: expected exactly one server-type key/,
      /two_impls\.responses_api_models: expected a map with exactly one implementation name/,
      /bad_port\.responses_api_agents\.simple_agent\.port: /,
      /empty_entry\.responses_api_agents\.simple_agent\.entrypoint: expected the entrypoint file/,
    );
  });

  it('skips almost-servers with warnings when error_on_almost_servers is false', () => {
    const found = findServerBlocks({ error_on_almost_servers: false, bad: { responses_api_models: { m: { entrypoint: 'app.ts', port: 'x' } } }, weather: resources });
    assert.deepEqual(
      found.servers.map((s) => s.instanceName),
      ['weather'],
    );
    assert.match(found.warnings[0]!, /Skipping invalid server block: bad\.responses_api_models\.m\.port/);
  });

  it('does not start a server-shaped block without an entrypoint, as the original, and names it in one warning', () => {
    const found = findServerBlocks({
      judge_model: { responses_api_models: { openai_model: { openai_base_url: 'http://judge/v1', openai_model: 'gpt-4o' } } },
      odd: { responses_api_agents: { simple_agent: 'oops' }, resources_servers: {} },
      weather: resources,
    });
    assert.deepEqual(
      found.servers.map((s) => s.instanceName),
      ['weather'],
    );
    assert.equal(found.warnings.length, 1);
    assert.match(found.warnings[0]!, /^Not starting judge_model, odd: .*without an entrypoint/);
  });
});

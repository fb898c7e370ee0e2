import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as runtime from '../src/index.js';
import * as testing from '../src/testing/index.js';

// Pinned so that widening the public API is a visible decision (STYLE.md §2).
describe('@gym/runtime public surface', () => {
  it('exports exactly the pinned names', () => {
    assert.deepEqual(Object.keys(runtime).sort(), [
      'CHAT_COMPLETION_CREATE_PARAMS', 'ExitError', 'GYM_PRESETS', 'GYM_SPAN_GROUPS', 'GymError', 'GymHttpRequestError', 'GymHttpStatusError', 'GymInternalError', 'GymUpstreamError', 'GymUserError', 'MODEL_CALL_ID_HEADER',
      'OpenAIUpstream', 'PROPAGATION_FIELDS', 'RESPONSES_CREATE_PARAMS', 'RESPONSES_REQUEST_FIELDS',
      'addJsonRoute', 'collectRollouts', 'computeAggregateMetrics', 'configBool', 'configHeaders', 'configObject', 'configPositiveInt', 'createHttpClient', 'createServerApp', 'createServerContext', 'defineAgentServer', 'defineModelServer',
      'defineResourcesServer', 'dumpConfigYaml', 'gymSpan', 'installShutdownHandlers', 'instanceUrl', 'isGymSpanGroupEnabled', 'isHttpStatusError', 'listen', 'loadConfig', 'materializeRows', 'parseModelConfig',
      'readEvidenceSettings', 'redactError', 'redactSecrets', 'redactText', 'rolloutIdOf', 'rolloutUrlPrefix', 'startEnvironment', 'upstreamPropagation',
    ]);
    assert.deepEqual(Object.keys(testing).sort(), ['assistantMessage', 'freePort', 'functionCall', 'scriptedModelServer']);
  });

  it('loads no OpenTelemetry or lens module when imported', async () => {
    const { spawnSync } = await import('node:child_process');
    const index = new URL('../src/index.ts', import.meta.url).href;
    const probe = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '-e', `
      await import(${JSON.stringify(index)});
      const loaded = Object.keys((await import('node:module')).createRequire(import.meta.url).cache).filter((p) => p.includes('@opentelemetry'));
      console.log(JSON.stringify(loaded));
    `], { encoding: 'utf8' });
    assert.equal(probe.status, 0, probe.stderr);
    assert.deepEqual(JSON.parse(probe.stdout.trim().split('\\n').at(-1)!), []);
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as lens from '../src/index.js';

// Pinned so that adding an export is a visible decision (STYLE.md §2).
const EXPECTED = [
  'ALL', 'BOOLEAN_SPELLINGS', 'DEFAULT_REDACT_KEYS', 'DEFAULT_SCOPE', 'EXPORTER_NAMES', 'LENS_ERRORS',
  'LEAN_ROOT_CONTEXT', 'LENS_VERSION', 'LENS_WARNINGS', 'LensConfigError', 'LensError', 'LensSetupError', 'NOOP_SPAN', 'NemoLensConfig',
  'REDACTED', 'SpanGroup', 'SpanRegistry', 'TRUNCATED', 'TRUNCATED_REASON', 'bindSpanGroupGate', 'detectKubernetes',
  'detectResource', 'detectSlurm', 'emitSpan', 'enabledSpanGroups', 'ensureRunId', 'epochSecondsToNanos',
  'extractContext', 'formatOtelResourceAttributes', 'formatTraceparent', 'getLeanTracer', 'getMeter', 'getTracer',
  'hrTimeAt', 'injectContext', 'isEnabled', 'isSpanGroupEnabled', 'lensPinoOptions', 'lensWarn', 'managedSpan',
  'nowHrTime', 'parseBoolean', 'parseOtelResourceAttributes', 'parseSpec', 'parseTraceparent', 'pendingSpanGroups',
  'readEnv', 'recordSpanError', 'redactValue', 'refreshEnabledSpanGroups', 'resolveResourceAttributes',
  'safeSetSpanAttributes', 'scrubString', 'setEnabledSpanGroups', 'setStringScrubber', 'setSpanGroupSpec', 'setupTelemetry', 'spanCm', 'spanGroup',
  'spanGroupSpec', 'startGroupSpan', 'traceFn', 'traceMixin',
];

describe('@gym/lens public surface', () => {
  it('exports exactly the pinned names', () => {
    assert.deepEqual(Object.keys(lens).sort(), [...EXPECTED].sort());
  });

  it('loads no OpenTelemetry SDK package, starts no timer and reads no environment when imported', () => {
    const index = new URL('../src/index.ts', import.meta.url).href;
    const probe = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '-e', `
      const seen = new Set();
      process.env = new Proxy(process.env, { get(t, k) { if (typeof k === 'string' && /^(NEMO|OTEL)/.test(k)) seen.add(k); return t[k]; } });
      await import(${JSON.stringify(index)});
      const sdk = Object.keys((await import('node:module')).createRequire(import.meta.url).cache ?? {}).filter((p) => /@opentelemetry\\/(sdk|exporter|resources|core)/.test(p));
      console.log(JSON.stringify({ sdk, env: [...seen], handles: process.getActiveResourcesInfo().filter((r) => r === 'Timeout') }));
    `], { encoding: 'utf8', env: { ...process.env } });
    assert.equal(probe.status, 0, probe.stderr);
    const result = JSON.parse(probe.stdout.trim().split('\n').at(-1)!);
    assert.deepEqual(result, { sdk: [], env: [], handles: [] });
  });
});

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

// The exported names are pinned with every other entry point's (runtime/test/architecture/public-surfaces.test.ts).
describe('@gym/lens root', () => {
  it('loads no OpenTelemetry SDK package, starts no timer and reads no environment when imported', () => {
    const index = new URL('../src/index.ts', import.meta.url).href;
    const probe = spawnSync(
      process.execPath,
      [
        '--conditions=source',
        '--import',
        'tsx',
        '-e',
        `
      const seen = new Set();
      process.env = new Proxy(process.env, { get(t, k) { if (typeof k === 'string' && /^(NEMO|OTEL)/.test(k)) seen.add(k); return t[k]; } });
      await import(${JSON.stringify(index)});
      const sdk = Object.keys((await import('node:module')).createRequire(import.meta.url).cache ?? {}).filter((p) => /@opentelemetry\\/(sdk|exporter|resources|core)/.test(p));
      console.log(JSON.stringify({ sdk, env: [...seen], handles: process.getActiveResourcesInfo().filter((r) => r === 'Timeout') }));
    `,
      ],
      { encoding: 'utf8', env: { ...process.env } },
    );
    assert.equal(probe.status, 0, probe.stderr);
    const result = JSON.parse(probe.stdout.trim().split('\n').at(-1)!);
    assert.deepEqual(result, { sdk: [], env: [], handles: [] });
  });
});

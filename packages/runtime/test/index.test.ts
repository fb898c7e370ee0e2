import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

// The exported names are pinned with every other entry point's (architecture/public-surfaces.test.ts).
const ROOTS = { '@gym/server': new URL('../../server/src/index.ts', import.meta.url).href, '@gym/runtime': new URL('../src/index.ts', import.meta.url).href };

for (const [name, index] of Object.entries(ROOTS))
  describe(`${name} root`, () => {
    it('loads no OpenTelemetry or lens module when imported', async () => {
      const { spawnSync } = await import('node:child_process');
      const probe = spawnSync(
        process.execPath,
        [
          '--conditions=source',
          '--import',
          'tsx',
          '-e',
          `
      await import(${JSON.stringify(index)});
      const loaded = Object.keys((await import('node:module')).createRequire(import.meta.url).cache).filter((p) => p.includes('@opentelemetry'));
      console.log(JSON.stringify(loaded));
    `,
        ],
        { encoding: 'utf8' },
      );
      assert.equal(probe.status, 0, probe.stderr);
      assert.deepEqual(JSON.parse(probe.stdout.trim().split('\\n').at(-1)!), []);
    });
  });

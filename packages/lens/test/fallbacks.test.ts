import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fallbacks from '../src/fallbacks.js';
import * as root from '../src/index.js';
import * as nemoLens from '../src/nemo-lens.js';

// The type side of parity is checked by `tsc`: every fallback is declared as the type of its real
// counterpart, of the root or of `@gym/lens/nemo-lens`.
const real = { ...root, ...nemoLens };
const PRIMITIVES = Object.keys(fallbacks).filter((name) => name !== 'NOOP_SPAN');

describe('lens/fallbacks', () => {
  it('offers a same-named real export for every fallback, of the same kind', () => {
    for (const name of PRIMITIVES) {
      const realValue = (real as Record<string, unknown>)[name];
      const fallbackValue = (fallbacks as Record<string, unknown>)[name];
      assert.ok(realValue !== undefined, `${name} has no real counterpart`);
      assert.equal(typeof fallbackValue, typeof realValue, name);
    }
  });

  it('covers every primitive a call site uses', () => {
    for (const name of [
      'managedSpan',
      'spanCm',
      'traceFn',
      'startGroupSpan',
      'emitSpan',
      'safeSetSpanAttributes',
      'isSpanGroupEnabled',
      'spanGroup',
      'injectContext',
      'extractContext',
      'SpanRegistry',
    ]) {
      assert.ok(PRIMITIVES.includes(name), `fallbacks lack ${name}`);
    }
  });

  it('runs call sites unchanged and records nothing', async () => {
    assert.equal(
      fallbacks.managedSpan('x', 'y', (span) => span.isRecording()),
      false,
    );
    assert.equal(await fallbacks.traceFn('x', 'y')(async (n: number) => n * 2)(4), 8);
    assert.equal(fallbacks.spanGroup('Rollout').enabled, false);
    assert.equal(fallbacks.emitSpan('x', 'bad', 'worse'), undefined);
    const headers: Record<string, string> = {};
    fallbacks.injectContext(headers);
    assert.deepEqual(headers, {});
    fallbacks.SpanRegistry.register('gym', { groups: ['all'] });
    assert.deepEqual([...fallbacks.SpanRegistry.resolve('A, b').pending], ['a', 'b']);
  });

  it('imports nothing at run time, so it works where @opentelemetry/api is missing', () => {
    const source = new URL('../src/fallbacks.ts', import.meta.url);
    const probe = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `
      import('node:module').then(async ({ register }) => {
        register('data:text/javascript,' + encodeURIComponent('export async function resolve(s, c, n) { if (s.startsWith("@opentelemetry/")) throw new Error("blocked " + s); return n(s, c); }'));
        const f = await import(${JSON.stringify(source.href)});
        console.log(f.managedSpan('g', 'n', (s) => s.isRecording()));
      });`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(probe.status, 0, probe.stderr);
    assert.equal(probe.stdout.trim(), 'false');
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, resolveInterpolations } from '../../src/config/index.js';
import { tempTree } from './support.js';
import type { TempTree } from './support.js';

const resolve = (tree: Record<string, unknown>, env: Record<string, string> = {}): Record<string, unknown> => resolveInterpolations(tree, { env });

function rejectsWith(fn: () => unknown, code: string, ...patterns: RegExp[]): void {
  assert.throws(fn, (err: Error & { code: string }) => {
    assert.equal(err.code, code);
    for (const p of patterns) assert.match(err.message, p);
    return true;
  });
}

describe('resolveInterpolations', () => {
  it('replaces a whole-string reference with the value and its type', () => {
    const out = resolve({ a: { n: 3, l: [1, 2], m: { k: true } }, n: '${a.n}', l: '${a.l}', m: '${a.m}' });
    assert.equal(out['n'], 3);
    assert.deepEqual(out['l'], [1, 2]);
    assert.deepEqual(out['m'], { k: true });
  });

  it('copies referenced maps, so the two places do not share an object', () => {
    const out = resolve({ a: { x: 1 }, b: '${a}' });
    (out['b'] as Record<string, unknown>)['x'] = 2;
    assert.deepEqual(out['a'], { x: 1 });
  });

  it('interpolates inside longer strings', () => {
    const out = resolve({ host: 'h', port: 80, url: 'http://${host}:${port}/v1', flag: 'on=${f}', f: false });
    assert.equal(out['url'], 'http://h:80/v1');
    assert.equal(out['flag'], 'on=false');
  });

  it('resolves chains and references through an interpolated prefix', () => {
    const out = resolve({ a: '${b}', b: '${c}', c: { d: 'deep' }, e: '${a.d}', list: ['x', 'y'], f: '${list.1}', g: '${list[0]}' });
    assert.deepEqual(out['a'], { d: 'deep' });
    assert.equal(out['e'], 'deep');
    assert.equal(out['f'], 'y');
    assert.equal(out['g'], 'x');
  });

  it('resolves relative keys against the node holding them', () => {
    const out = resolve({ s: { a: 1, b: '${.a}', inner: { c: '${..a}' } } });
    assert.deepEqual(out['s'], { a: 1, b: 1, inner: { c: 1 } });
  });

  it('reads environment variables, with and without defaults, as strings', () => {
    const out = resolve({ a: '${oc.env:SET}', b: '${oc.env:UNSET,fallback}', c: '${oc.env:UNSET,8000}', d: '${oc.env:UNSET,null}', e: 'x-${oc.env:SET}' }, { SET: 'v' });
    assert.deepEqual(out, { a: 'v', b: 'fallback', c: '8000', d: null, e: 'x-v' });
  });

  it('prefers a set-but-empty variable over the default', () => {
    assert.equal(resolve({ a: '${oc.env:EMPTY,dflt}' }, { EMPTY: '' })['a'], '');
  });

  it('resolves interpolations nested in resolver arguments', () => {
    const out = resolve({ fallback: 'from-config', a: '${oc.env:NOPE,${fallback}}', b: "${oc.env:NOPE,'q,uoted'}" });
    assert.equal(out['a'], 'from-config');
    assert.equal(out['b'], 'q,uoted');
  });

  it('names the variable when it is unset and has no default', () => {
    rejectsWith(() => resolve({ k: { key: '${oc.env:MY_API_KEY}' } }), 'GYM_CONFIG_INTERPOLATION', /k\.key: environment variable MY_API_KEY is not set/, /\$\{oc\.env:MY_API_KEY,<default>\}/);
  });

  it('reports an unknown key with a close match', () => {
    rejectsWith(
      () => resolve({ policy: { base_url: 'u' }, x: '${policy.base_ur}' }),
      'GYM_CONFIG_INTERPOLATION',
      /x: \$\{policy\.base_ur\} refers to 'policy\.base_ur'.*did you mean 'policy\.base_url'/,
    );
  });

  it('detects a reference cycle and shows the chain', () => {
    rejectsWith(() => resolve({ a: '${b}', b: '${c}', c: '${a}' }), 'GYM_CONFIG_INTERPOLATION', /cycle: a → b → c → a/);
  });

  it('detects a node that refers to its own ancestor', () => {
    rejectsWith(() => resolve({ a: { self: '${a}' } }), 'GYM_CONFIG_INTERPOLATION', /cycle: a → a\.self → a/);
  });

  it('lists every failure in one error', () => {
    assert.throws(
      () => resolve({ a: '${oc.env:V1}', b: '${missing}', c: '${oc.nope:x}' }),
      (err: Error) => /3 interpolations could not be resolved/.test(err.message) && /unknown resolver 'oc\.nope'/.test(err.message),
    );
  });

  it('refuses to embed a map in a longer string', () => {
    rejectsWith(() => resolve({ m: { a: 1 }, s: 'x${m}' }), 'GYM_CONFIG_INTERPOLATION', /is a map and cannot be embedded/);
  });

  it('keeps an escaped \\${ literal and leaves ??? targets as ???', () => {
    const out = resolve({ lit: 'cost: \\${price}', m: '???', ref: '${m}' });
    assert.equal(out['lit'], 'cost: ${price}');
    assert.equal(out['ref'], '???');
  });

  it('reports an unterminated ${', () => {
    rejectsWith(() => resolve({ a: 'x${b' }), 'GYM_CONFIG_INTERPOLATION', /unterminated interpolation/);
  });
});

describe('loadConfig interpolation', () => {
  const trees: TempTree[] = [];
  after(() => trees.forEach((t) => t.cleanup()));

  it('resolves across files, env.yaml and overrides, and names the file of a failure', async () => {
    const t = tempTree({
      'a.yaml': 'url: ${policy_base_url}/v1\nkey: ${oc.env:GYM_TEST_KEY}\n',
      'env.yaml': 'policy_base_url: http://env\n',
    });
    trees.push(t);
    const c = await loadConfig({ rootDir: t.dir, selectors: { configs: ['a.yaml'] }, env: { GYM_TEST_KEY: 'k' } });
    assert.equal(c.raw['url'], 'http://env/v1');
    assert.equal(c.raw['key'], 'k');
    await assert.rejects(loadConfig({ rootDir: t.dir, selectors: { configs: ['a.yaml'] }, env: {} }), /key \(from .*a\.yaml\): environment variable GYM_TEST_KEY/);
  });
});

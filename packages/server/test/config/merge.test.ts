import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadConfig, mergeConfigs } from '../../src/config/index.js';
import { treesRemovedAfter } from './support.js';

const tree = treesRemovedAfter();

describe('mergeConfigs', () => {
  it('deep-merges maps, replaces lists and scalars, and leaves inputs untouched', () => {
    const a = { m: { x: 1, y: [1, 2, 3], z: { deep: 'a' } }, s: 'a' };
    const b = { m: { y: [9], z: { other: true } }, s: 'b' };
    const out = mergeConfigs([a, b]);
    assert.deepEqual(out, { m: { x: 1, y: [9], z: { deep: 'a', other: true } }, s: 'b' });
    assert.deepEqual(a.m.y, [1, 2, 3]);
  });

  it('replaces a map with a scalar and a scalar with a map', () => {
    assert.deepEqual(
      mergeConfigs([
        { a: { x: 1 }, b: 1 },
        { a: 2, b: { y: 2 } },
      ]),
      { a: 2, b: { y: 2 } },
    );
  });
});

describe('loadConfig merge order', () => {
  it('lets a later --config win and replaces lists instead of merging them', async () => {
    const dir = tree({
      'a.yaml': 'shared: {x: 1, keep: a}\nitems: [1, 2, 3]\n',
      'b.yaml': 'shared: {x: 2}\nitems: [9]\n',
    });
    const c = await loadConfig({ rootDir: dir, selectors: { configs: ['a.yaml', 'b.yaml'] }, env: {} });
    assert.deepEqual(c.raw['shared'], { x: 2, keep: 'a' });
    assert.deepEqual(c.raw['items'], [9]);
    assert.deepEqual(c.sources, [join(dir, 'a.yaml'), join(dir, 'b.yaml')]);
  });

  it('loads includes first so the including file overrides them, siblings in order', async () => {
    const dir = tree({
      'top.yaml': 'config_paths: [inc1.yaml, inc2.yaml]\nv: top\n',
      'inc1.yaml': 'config_paths: [deep.yaml]\nv: inc1\nfrom1: true\n',
      'inc2.yaml': 'v: inc2\nfrom2: true\nw: inc2\n',
      'deep.yaml': 'v: deep\nw: deep\nd: true\n',
    });
    const c = await loadConfig({ rootDir: dir, selectors: { configs: ['top.yaml'] }, env: {} });
    assert.equal(c.raw['v'], 'top');
    assert.equal(c.raw['w'], 'inc2');
    assert.deepEqual(
      c.sources.map((s) => s.slice(dir.length + 1)),
      ['deep.yaml', 'inc1.yaml', 'inc2.yaml', 'top.yaml'],
    );
    // Selector entries are absolute; includes stay as written.
    assert.deepEqual(c.raw['config_paths'], [join(dir, 'top.yaml'), 'inc1.yaml', 'deep.yaml', 'inc2.yaml']);
  });

  it('loads a repeated or cyclic include once and warns', async () => {
    const dir = tree({
      'a.yaml': 'config_paths: [b.yaml]\na: 1\n',
      'b.yaml': 'config_paths: [a.yaml]\nb: 1\n',
    });
    const c = await loadConfig({ rootDir: dir, selectors: { configs: ['a.yaml'] }, env: {} });
    assert.equal(c.sources.length, 2);
    assert.match(c.warnings.join('\n'), /a\.yaml is included more than once/);
  });

  it('names the including file and every place tried when an include is missing', async () => {
    const dir = tree({ 'a.yaml': 'config_paths: [nope.yaml]\n' });
    await assert.rejects(loadConfig({ rootDir: dir, selectors: { configs: ['a.yaml'] }, env: {} }), (err: Error & { code: string }) => {
      assert.equal(err.code, 'GYM_CONFIG_FILE_NOT_FOUND');
      assert.match(err.message, /'nope\.yaml' \(listed in .*a\.yaml\) was not found/);
      assert.ok(err.message.includes(join(dir, 'nope.yaml')));
      return true;
    });
  });

  it('merges env.yaml above the files and CLI overrides above env.yaml', async () => {
    const dir = tree({
      'a.yaml': 'x: file\ny: file\nz: file\n',
      'env.yaml': 'y: env\nz: env\n',
    });
    const c = await loadConfig({ rootDir: dir, selectors: { configs: ['a.yaml'] }, overrides: ['++z=cli'], env: {} });
    assert.deepEqual([c.raw['x'], c.raw['y'], c.raw['z']], ['file', 'env', 'cli']);
    assert.deepEqual(c.sources, [join(dir, 'a.yaml'), join(dir, 'env.yaml')]);
  });

  it('takes config_paths from env.yaml when the command line names none, and from the command line otherwise', async () => {
    const dir = tree({
      'a.yaml': 'which: a\n',
      'b.yaml': 'which: b\n',
      'env.yaml': 'config_paths: [a.yaml]\nmy_paths: [b.yaml]\n',
    });
    assert.equal((await loadConfig({ rootDir: dir, env: {} })).raw['which'], 'a');
    const viaCli = await loadConfig({ rootDir: dir, overrides: ['+config_paths=${my_paths}'], env: {} });
    assert.equal(viaCli.raw['which'], 'b');
    const viaSelector = await loadConfig({ rootDir: dir, selectors: { configs: ['b.yaml'] }, env: {} });
    assert.equal(viaSelector.raw['which'], 'b');
  });

  it('joins every config_paths override after the selectors', async () => {
    const dir = tree({ 'a.yaml': 'v: a\n', 'b.yaml': 'v: b\n', 'c.yaml': 'v: c\n' });
    const c = await loadConfig({
      rootDir: dir,
      selectors: { configs: ['a.yaml'] },
      overrides: ['+config_paths=[b.yaml]', '+config_paths=[c.yaml]'],
      env: {},
    });
    assert.equal(c.raw['v'], 'c');
    assert.equal(c.sources.length, 3);
  });

  it('skips env.yaml when envYamlPath is false', async () => {
    const dir = tree({ 'a.yaml': 'x: file\n', 'env.yaml': 'x: env\n' });
    const c = await loadConfig({ rootDir: dir, selectors: { configs: ['a.yaml'] }, envYamlPath: false, env: {} });
    assert.equal(c.raw['x'], 'file');
  });

  it('reports malformed YAML with file, line and column', async () => {
    const dir = tree({ 'bad.yaml': 'a: 1\nb: [unclosed\n' });
    await assert.rejects(loadConfig({ rootDir: dir, selectors: { configs: ['bad.yaml'] }, env: {} }), (err: Error & { code: string }) => {
      assert.equal(err.code, 'GYM_CONFIG_BAD_YAML');
      assert.match(err.message, /bad\.yaml at line \d+, column \d+/);
      return true;
    });
  });

  it('rejects a file whose top level is not a map', async () => {
    const dir = tree({ 'list.yaml': '- a\n- b\n' });
    await assert.rejects(loadConfig({ rootDir: dir, selectors: { configs: ['list.yaml'] }, env: {} }), /must contain a YAML map at the top level, got a list/);
  });

  it('rejects a config_paths that is not a list of strings', async () => {
    const dir = tree({ 'a.yaml': 'config_paths: {x: 1}\n' });
    await assert.rejects(loadConfig({ rootDir: dir, selectors: { configs: ['a.yaml'] }, env: {} }), /config_paths in .*a\.yaml must be a list of paths, got a map/);
  });
});

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyOverrides, loadConfig, parseOverride, parseOverrides, parseOverrideValue } from '../../src/config/index.js';
import { tempTree } from './support.js';
import type { TempTree } from './support.js';

const apply = (tree: Record<string, unknown>, ...tokens: string[]): Record<string, unknown> => applyOverrides(tree, parseOverrides(tokens));

function rejectsOverride(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (err: Error & { code: string }) => {
    assert.equal(err.code, 'GYM_CONFIG_BAD_OVERRIDE');
    assert.match(err.message, pattern);
    return true;
  });
}

describe('parseOverride', () => {
  it('reads the operation and the dotted key', () => {
    assert.deepEqual(parseOverride('+a.b=1'), { op: 'add', path: ['a', 'b'], value: 1, text: '+a.b=1' });
    assert.equal(parseOverride('++x=1').op, 'force');
    assert.equal(parseOverride('x=1').op, 'set');
    assert.deepEqual(parseOverride('~x.y'), { op: 'delete', path: ['x', 'y'], value: undefined, text: '~x.y' });
  });

  it('parses values as YAML scalars, lists and maps', () => {
    assert.deepEqual(parseOverride('+a.b=[1,2]').value, [1, 2]);
    assert.equal(parseOverride('++x=true').value, true);
    assert.equal(parseOverride('+n=3').value, 3);
    assert.equal(parseOverride('+f=0.5').value, 0.5);
    assert.equal(parseOverride('+z=null').value, null);
    assert.equal(parseOverride('+s=hello world').value, 'hello world');
    assert.equal(parseOverride("+q='3'").value, '3');
    assert.equal(parseOverride('+e=').value, '');
    assert.deepEqual(parseOverride('+m={a:1,b: [x, y]}').value, { a: 1, b: ['x', 'y'] });
    assert.deepEqual(parseOverride('+p=[a.yaml,b/c.yaml]').value, ['a.yaml', 'b/c.yaml']);
  });

  it('keeps values that YAML would read as block structures or comments as strings', () => {
    assert.equal(parseOverrideValue('a: b'), 'a: b');
    assert.equal(parseOverrideValue('- x'), '- x');
    assert.equal(parseOverrideValue('#tag'), '#tag');
    assert.equal(parseOverrideValue('http://h:1/v1'), 'http://h:1/v1');
    assert.equal(parseOverrideValue('${oc.env:X,1}'), '${oc.env:X,1}');
  });

  it('rejects malformed tokens with the expected forms', () => {
    rejectsOverride(() => parseOverride('noequals'), /Bad override 'noequals': missing "=value".*\+key=value/);
    rejectsOverride(() => parseOverride('+++x=1'), /use \+ or \+\+, not more/);
    rejectsOverride(() => parseOverride('+=1'), /keys are dotted names/);
    rejectsOverride(() => parseOverride('+a..b=1'), /keys are dotted names/);
    rejectsOverride(() => parseOverride('~a=1'), /takes no value/);
    rejectsOverride(() => parseOverride('+l=[1,2'), /not a valid YAML list or map/);
  });

  it('reports every malformed token at once', () => {
    rejectsOverride(() => parseOverrides(['+ok=1', 'bad', '+a b=1']), /2 bad overrides:\n {2}- Bad override 'bad'.*\n {2}- Bad override '\+a b=1'/);
  });
});

describe('applyOverrides', () => {
  it('adds new keys, creating parent maps', () => {
    assert.deepEqual(apply({}, '+a.b.c=1'), { a: { b: { c: 1 } } });
  });

  it('lets + replace a value from the files, as the original does', () => {
    assert.deepEqual(apply({ a: 1 }, '+a=2'), { a: 2 });
  });

  it('rejects + for a key an earlier override already set, and allows ++', () => {
    rejectsOverride(() => apply({}, '+a=1', '+a=2'), /a was already set by an earlier override. Use \+\+a=/);
    assert.deepEqual(apply({}, '+a=1', '++a=2'), { a: 2 });
  });

  it('requires a plain key=value to name an existing key, suggesting close ones', () => {
    assert.deepEqual(apply({ m: { port: 1 } }, 'm.port=2'), { m: { port: 2 } });
    rejectsOverride(() => apply({ m: { port: 1 } }, 'm.prot=2'), /Could not override 'm\.prot': no such key.*Did you mean 'port'\?.*\+m\.prot=/);
  });

  it('deep-merges a map value into an existing map and replaces lists', () => {
    assert.deepEqual(apply({ m: { a: 1, l: [1, 2] } }, '++m={b: 2, l: [3]}'), { m: { a: 1, b: 2, l: [3] } });
  });

  it('deletes keys with ~ and rejects deleting a missing key', () => {
    assert.deepEqual(apply({ a: 1, b: 2 }, '~a'), { b: 2 });
    rejectsOverride(() => apply({ a: 1 }, '~zz'), /Could not delete 'zz'/);
  });

  it('refuses to descend into a scalar', () => {
    rejectsOverride(() => apply({ a: 'str' }, '+a.b=1'), /a is not a map, so it has no key 'b'/);
  });

  it('does not modify its input', () => {
    const input = { a: { b: 1 } };
    apply(input, '++a.b=2');
    assert.deepEqual(input, { a: { b: 1 } });
  });
});

describe('loadConfig overrides', () => {
  const trees: TempTree[] = [];
  after(() => trees.forEach((t) => t.cleanup()));

  it('applies YAML-typed overrides over files and env.yaml and interpolates them', async () => {
    const t = tempTree({ 'a.yaml': 'n: 1\nflag: false\n', 'env.yaml': 'name: env\n' });
    trees.push(t);
    const c = await loadConfig({
      rootDir: t.dir,
      selectors: { configs: ['a.yaml'] },
      overrides: ['n=3', '++flag=true', '+a.b=[1,2]', '+greeting=hi ${name}'],
      env: {},
    });
    assert.equal(c.raw['n'], 3);
    assert.equal(c.raw['flag'], true);
    assert.deepEqual(c.raw['a'], { b: [1, 2] });
    assert.equal(c.raw['greeting'], 'hi env');
  });

  it('rejects a plain override of a key no source defines', async () => {
    const t = tempTree({ 'a.yaml': 'n: 1\n' });
    trees.push(t);
    await assert.rejects(loadConfig({ rootDir: t.dir, selectors: { configs: ['a.yaml'] }, overrides: ['nn=3'], env: {} }), /Could not override 'nn'.*Did you mean 'n'/);
  });

  it("suggests a built-in setting for a plain override's typo (num_repeat=3)", async () => {
    const t = tempTree({ 'a.yaml': 'n: 1\n' });
    trees.push(t);
    await assert.rejects(loadConfig({ rootDir: t.dir, selectors: { configs: ['a.yaml'] }, overrides: ['num_repeat=3'], env: {} }), /Could not override 'num_repeat'.*Did you mean 'num_repeats'\?/);
  });

  it('warns when an added top-level setting is read by nothing, with a did-you-mean', async () => {
    const t = tempTree({ 'a.yaml': 'n: 1\nkey_user: ${policy_api_key}\n' });
    trees.push(t);
    const c = await loadConfig({ rootDir: t.dir, selectors: { configs: ['a.yaml'] }, overrides: ['+num_repeat=3', '++policy_api_key=k', '+num_repeats=2', '+limit=1', '+srv={a: 1}'], env: {} });
    const unread = c.warnings.filter((w) => w.includes('nothing reads'));
    assert.equal(unread.length, 1, unread.join('\n'));
    assert.match(unread[0]!, /'\+num_repeat': nothing reads the setting 'num_repeat'.*Did you mean 'num_repeats'\?/);
    assert.doesNotMatch(unread[0]!, /=3/, 'the value is never printed');
  });
});

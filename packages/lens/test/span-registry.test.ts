import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SpanRegistry } from '../src/index.js';
import { parseSpec } from '../src/nemo-lens.js';
import { captureWarnings } from './warnings-fixture.js';

describe('SpanRegistry', () => {
  beforeEach(() => SpanRegistry.clear());
  afterEach(() => SpanRegistry.clear());

  it('normalises group and preset names to trimmed lower case', () => {
    SpanRegistry.register('gym', { groups: [' Rollout ', 'VERIFY'], presets: { ' Default ': ['ROLLOUT'] } });
    assert.deepEqual([...SpanRegistry.groups()].sort(), ['rollout', 'verify']);
    assert.deepEqual([...(SpanRegistry.presets().get('default') ?? [])], ['rollout']);
  });

  it('rejects an empty namespace, an empty group and the reserved name all', () => {
    assert.throws(() => SpanRegistry.register('  ', { groups: ['a'] }), /namespace/);
    assert.throws(() => SpanRegistry.register('x', { groups: [' '] }), /empty group/);
    assert.throws(() => SpanRegistry.register('x', { groups: ['All'] }), /reserved/);
    assert.throws(() => SpanRegistry.register('x', { groups: ['a'], presets: { all: ['a'] } }), /reserved/);
  });

  it('refuses a second registration of a namespace unless allowOverride, which replaces it wholesale', () => {
    SpanRegistry.register('gym', { groups: ['a', 'b'], presets: { p: ['a'] } });
    assert.throws(() => SpanRegistry.register('gym', { groups: ['c'] }), /already registered/);
    SpanRegistry.register('gym', { groups: ['c'] }, { allowOverride: true });
    assert.deepEqual([...SpanRegistry.groups()], ['c']);
    assert.equal(SpanRegistry.presets().has('p'), false);
  });

  it('merges presets of the same name across namespaces and limits them to live groups', () => {
    SpanRegistry.register('a', { groups: ['x'], presets: { default: ['x', 'y'] } });
    SpanRegistry.register('b', { groups: ['z'], presets: { default: ['z'] } });
    assert.deepEqual([...(SpanRegistry.presets().get('default') ?? [])].sort(), ['x', 'z']);
    SpanRegistry.register('c', { groups: ['y'] });
    assert.deepEqual([...(SpanRegistry.presets().get('default') ?? [])].sort(), ['x', 'y', 'z']);
  });

  it('warns once with LENS_W001 when two namespaces register the same group, and both share it', async () => {
    const warnings = await captureWarnings();
    SpanRegistry.register('a', { groups: ['shared'] });
    SpanRegistry.register('b', { groups: ['shared'] });
    await warnings.stop();
    assert.deepEqual(warnings.codes(), ['LENS_W001']);
    SpanRegistry.unregister('a');
    assert.ok(SpanRegistry.groups().has('shared'));
  });

  it('warns with LENS_W002 about preset members nothing registered', async () => {
    const warnings = await captureWarnings();
    SpanRegistry.register('a', { groups: ['x'], presets: { default: ['x', 'typo'] } });
    await warnings.stop();
    assert.deepEqual(warnings.codes(), ['LENS_W002']);
    assert.match(warnings.messages()[0]!, /default:typo/);
  });

  it('resolves presets before groups, all to every group, and unknown entries to pending', () => {
    SpanRegistry.register('gym', { groups: ['job', 'rollout', 'verify'], presets: { default: ['job'] } });
    assert.deepEqual([...SpanRegistry.resolve('default , VERIFY').enabled].sort(), ['job', 'verify']);
    assert.deepEqual([...SpanRegistry.resolve('all').enabled].sort(), ['job', 'rollout', 'verify']);
    const { enabled, pending } = SpanRegistry.resolve('rollout,nope,,');
    assert.deepEqual([...enabled], ['rollout']);
    assert.deepEqual([...pending], ['nope']);
    assert.equal(SpanRegistry.resolve('').enabled.size, 0);
  });

  it('throws when unregistering an unknown namespace', () => {
    assert.throws(() => SpanRegistry.unregister('ghost'), /not registered/);
  });

  it('parses a spec into trimmed lower-case entries without empties', () => {
    assert.deepEqual(parseSpec(' Default,, Rollout ,'), ['default', 'rollout']);
  });
});

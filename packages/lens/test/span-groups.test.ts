import { afterEach, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isSpanGroupEnabled, setEnabledSpanGroups, setSpanGroupSpec, SpanGroup, SpanRegistry } from '../src/index.js';
import { enabledSpanGroups, pendingSpanGroups, spanGroup } from '../src/nemo-lens.js';
import { captureWarnings } from './warnings-fixture.js';

const GYM = { groups: ['job', 'rollout', 'verify'], presets: { default: ['job'], per_rollout: ['rollout', 'verify'] } };

describe('span-group gate', () => {
  beforeEach(() => {
    SpanRegistry.clear();
    setEnabledSpanGroups([]);
  });
  afterEach(() => {
    SpanRegistry.clear();
    setEnabledSpanGroups([]);
  });

  it('reports every group disabled before any spec is set', () => {
    SpanRegistry.register('gym', GYM);
    assert.equal(spanGroup('job').enabled, false);
    assert.equal(isSpanGroupEnabled('job'), false);
  });

  it('returns one SpanGroup object per name, whatever its case', () => {
    const a = spanGroup('Rollout');
    assert.ok(a instanceof SpanGroup);
    assert.equal(spanGroup(' rollout '), a);
  });

  it('keeps captured gate objects current as the spec changes', () => {
    const job = spanGroup('job');
    const rollout = spanGroup('rollout');
    SpanRegistry.register('gym', GYM);
    setSpanGroupSpec('default');
    assert.deepEqual([job.enabled, rollout.enabled], [true, false]);
    setSpanGroupSpec('per_rollout');
    assert.deepEqual([job.enabled, rollout.enabled], [false, true]);
    setSpanGroupSpec('ALL');
    assert.deepEqual([...enabledSpanGroups()].sort(), ['job', 'rollout', 'verify']);
  });

  it('enables a group registered after the spec named it (pending)', async () => {
    const warnings = await captureWarnings();
    const late = spanGroup('sandbox');
    SpanRegistry.register('gym', GYM);
    setSpanGroupSpec('default,sandbox');
    assert.deepEqual([...pendingSpanGroups()], ['sandbox']);
    assert.equal(late.enabled, false);
    SpanRegistry.register('tools', { groups: ['sandbox'] });
    assert.equal(late.enabled, true);
    assert.equal(pendingSpanGroups().size, 0);
    await warnings.stop();
    assert.deepEqual(warnings.codes(), ['LENS_W003']);
    assert.match(warnings.messages()[0]!, /sandbox/);
    assert.match(warnings.messages()[0]!, /Known presets: all, default, per_rollout/);
  });

  it('warns about an unknown name once, not on every later registry change', async () => {
    SpanRegistry.register('gym', GYM);
    const warnings = await captureWarnings();
    setSpanGroupSpec('default,typo');
    SpanRegistry.register('other', { groups: ['x'] });
    SpanRegistry.register('more', { groups: ['y'] });
    await warnings.stop();
    assert.deepEqual(warnings.codes(), ['LENS_W003']);
  });

  it('warns when a spec meets an empty registry, and when it selects nothing', async () => {
    const warnings = await captureWarnings();
    setSpanGroupSpec('all');
    SpanRegistry.register('gym', { groups: ['job'], presets: { empty: [] } });
    setSpanGroupSpec('empty');
    await warnings.stop();
    assert.deepEqual(warnings.codes(), ['LENS_W004', 'LENS_W005']);
  });

  it('stays quiet for an empty spec', async () => {
    SpanRegistry.register('gym', GYM);
    const warnings = await captureWarnings();
    setSpanGroupSpec('  ');
    await warnings.stop();
    assert.deepEqual(warnings.codes(), []);
    assert.equal(enabledSpanGroups().size, 0);
  });

  it('pins an explicit set so later registrations cannot reopen it', () => {
    setSpanGroupSpec('all');
    setEnabledSpanGroups([]);
    SpanRegistry.register('gym', GYM);
    assert.equal(spanGroup('job').enabled, false);
    setEnabledSpanGroups(['Verify']);
    assert.equal(spanGroup('verify').enabled, true);
    assert.equal(isSpanGroupEnabled('VERIFY'), true);
  });

  it('disables a group whose namespace is unregistered', () => {
    SpanRegistry.register('gym', GYM);
    setSpanGroupSpec('all');
    assert.equal(spanGroup('verify').enabled, true);
    SpanRegistry.unregister('gym');
    assert.equal(spanGroup('verify').enabled, false);
  });
});

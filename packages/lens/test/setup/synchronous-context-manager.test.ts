import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { SynchronousContextManager } from '../../src/setup/synchronous-context-manager.js';

const KEY = createContextKey('test');
const at = (value: string) => ROOT_CONTEXT.setValue(KEY, value);

describe('SynchronousContextManager', () => {
  it('makes a context active for the synchronous part of with(), nested, and restores the outer one', () => {
    const manager = new SynchronousContextManager();
    assert.equal(manager.active(), ROOT_CONTEXT);
    const seen = manager.with(
      at('outer'),
      (a: number, b: number) => {
        const inner = manager.with(at('inner'), () => manager.active().getValue(KEY));
        return [manager.active().getValue(KEY), inner, a + b];
      },
      undefined,
      1,
      2,
    );
    assert.deepEqual(seen, ['outer', 'inner', 3]);
    assert.equal(manager.active(), ROOT_CONTEXT);
  });

  it('restores the outer context when the function throws', () => {
    const manager = new SynchronousContextManager();
    assert.throws(
      () =>
        manager.with(at('x'), () => {
          throw new Error('boom');
        }),
      /boom/,
    );
    assert.equal(manager.active(), ROOT_CONTEXT);
  });

  it('does not follow a promise: after an await the context is the root again', async () => {
    const manager = new SynchronousContextManager();
    const after = await manager.with(at('request'), async () => {
      const before = manager.active().getValue(KEY);
      await Promise.resolve();
      return [before, manager.active().getValue(KEY)];
    });
    assert.deepEqual(after, ['request', undefined]);
  });

  it('binds functions to a context and leaves other values alone', () => {
    const manager = new SynchronousContextManager();
    const bound = manager.bind(at('bound'), function (this: { n: number }, add: number) {
      return `${String(manager.active().getValue(KEY))} ${this.n + add}`;
    });
    assert.equal(bound.call({ n: 1 }, 2), 'bound 3');
    const target = { x: 1 };
    assert.equal(manager.bind(at('bound'), target), target);
  });

  it('disable() forgets the active context', () => {
    const manager = new SynchronousContextManager();
    manager.with(at('left'), () => {
      manager.disable();
      assert.equal(manager.active(), ROOT_CONTEXT);
    });
  });
});

// Every `gym eval run --concurrency` above 10 printed
// `MaxListenersExceededWarning: Possible EventTarget memory leak detected. 11 abort listeners added
// to [AbortSignal]`: the collector handed one AbortSignal to every request in flight, and undici
// adds a listener per request. Each rollout now has a signal of its own.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { collectRollouts } from '../../src/rollouts/collect.js';
import { readRows, startTestAgent, tempRun } from './test-agent.js';

const CONCURRENCY = 32;

const warnings: Error[] = [];
const onWarning = (warning: Error) => void warnings.push(warning);
const listenerWarnings = () => warnings.filter((w) => w.name === 'MaxListenersExceededWarning');
before(() => process.on('warning', onWarning));
after(() => process.removeListener('warning', onWarning));
afterEach(() => void warnings.splice(0));

const cleanups: (() => unknown)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe(`a collection with ${CONCURRENCY} rollouts in flight`, () => {
  it('emits no MaxListenersExceededWarning, and leaves no listener on the caller signals', async () => {
    const total = 2 * CONCURRENCY;
    const stop = new AbortController();
    const abandon = new AbortController();
    let mostListeners = 0;
    // a batch is released only once the collector has as many rollouts in flight as it may
    const agent = await startTestAgent({
      gate: (s) => s.inFlight >= Math.min(CONCURRENCY, total - s.completed),
      run: () => {
        mostListeners = Math.max(mostListeners, getEventListeners(stop.signal, 'abort').length, getEventListeners(abandon.signal, 'abort').length);
        return { reward: 1 };
      },
    });
    const run = tempRun(total);
    cleanups.push(() => agent.close(), run.cleanup);
    const result = await collectRollouts({ environment: agent.environment, input: run.input, output: run.output, concurrency: CONCURRENCY, stopSignal: stop.signal, abandonSignal: abandon.signal });
    await nextTurn(); // warnings are emitted on a later tick
    assert.equal(agent.stats.maxInFlight, CONCURRENCY);
    assert.equal(result.succeeded, total);
    assert.equal(readRows(run.output).length, total);
    assert.deepEqual(
      listenerWarnings().map((w) => w.message),
      [],
    );
    // the collector's own stop/drain listeners, however many rollouts run
    assert.ok(mostListeners <= 2, `${mostListeners} listeners on a caller signal`);
    assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
    assert.equal(getEventListeners(abandon.signal, 'abort').length, 0);
  });

  it('still abandons every rollout in flight when the abandon signal fires', async () => {
    const abandon = new AbortController();
    let released = false;
    // hold every request; once all are in flight, abandon them
    const agent = await startTestAgent({
      gate: (s) => {
        if (s.inFlight === CONCURRENCY && !abandon.signal.aborted) abandon.abort();
        return released;
      },
    });
    const run = tempRun(CONCURRENCY);
    cleanups.push(() => agent.close(), run.cleanup);
    const result = await collectRollouts({ environment: agent.environment, input: run.input, output: run.output, concurrency: CONCURRENCY, abandonSignal: abandon.signal });
    await nextTurn();
    assert.equal(result.abandoned, CONCURRENCY);
    assert.equal(result.succeeded, 0);
    assert.equal(result.incomplete, CONCURRENCY);
    assert.equal(readRows(run.output).length, 0);
    assert.deepEqual(
      listenerWarnings().map((w) => w.message),
      [],
    );
    // let the held handlers finish: one more request re-checks the gate
    released = true;
    const res = await fetch(`${agent.url}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ responses_create_params: { input: 'x' } }) });
    assert.equal(res.status, 200);
  });
});

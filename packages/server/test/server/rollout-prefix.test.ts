import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { stripRolloutPrefix } from '../../src/server/index.js';
import { weather } from './weather-server.js';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

const strip = (url: string) => {
  const req = { url } as IncomingMessage & Record<symbol, unknown>;
  const rewritten = stripRolloutPrefix(req);
  const id = Object.getOwnPropertySymbols(req).map((s) => req[s])[0];
  return [rewritten, id];
};

describe('rollout prefix', () => {
  let app: FastifyInstance;
  before(() => {
    app = weather.build();
  });
  after(() => app.close());

  it('strips /ng-rollout/<id> and the training-token-capture segment', () => {
    assert.deepEqual(strip('/ng-rollout/abc/verify'), ['/verify', 'abc']);
    assert.deepEqual(strip('/ng-rollout/3-1-a2/training-token-capture/v1/responses?x=1'), ['/v1/responses?x=1', '3-1-a2']);
    assert.deepEqual(strip('/ng-rollout/a%20b'), ['/', 'a b']);
    assert.deepEqual(strip('/ng-rollout/abc?x=1'), ['/?x=1', 'abc']);
    assert.deepEqual(strip('/verify'), ['/verify', undefined]);
    assert.deepEqual(strip('/ng-rollout//verify'), ['/ng-rollout//verify', undefined]);
  });

  it('routes /ng-rollout/abc/verify to /verify with rollout id abc', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/ng-rollout/abc/verify',
      payload: { responses_create_params: { input: 'hi' }, response: { output: [{ type: 'message' }] }, expected_answer: 'x' },
    });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), {
      responses_create_params: { input: 'hi' },
      response: { output: [{ type: 'message' }] },
      expected_answer: 'x',
      reward: 1,
    });
  });

  it('exposes the rollout id to handlers, and null without a prefix', async () => {
    const withId = await app.inject({ method: 'POST', url: '/ng-rollout/r-42/whoami', payload: {} });
    assert.equal(withId.json().rolloutId, 'r-42');
    const without = await app.inject({ method: 'POST', url: '/whoami', payload: {} });
    assert.equal(without.json().rolloutId, null);
  });
});

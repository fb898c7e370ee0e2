// The route of a SERVER span, with the rollout prefix the runtime adds stripped.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { routeOf } from '../src/analyze/categorize.js';
import { bare, toRecords } from './support/fixtures.js';

const server = (name: string, attributes: Record<string, unknown> = {}) => toRecords([bare(name, '0000000000000001', null, 0, 1, { kind: 'SERVER', attributes })])[0]!;

describe('routeOf', () => {
  it('reads http.route, else the path of the span name, and strips /ng-rollout/<id>', () => {
    assert.equal(routeOf(server('POST /run', { 'http.route': '/run' })), '/run');
    assert.equal(routeOf(server('POST /v1/responses')), '/v1/responses');
    assert.equal(routeOf(server('POST', { 'http.route': '/ng-rollout/7-0/v1/responses' })), '/v1/responses');
    assert.equal(routeOf(server('POST /ng-rollout/7-0/training-token-capture/v1/chat/completions')), '/v1/chat/completions');
    assert.equal(routeOf(server('POST', { 'http.route': '/ng-rollout/' })), '/ng-rollout/');
    assert.equal(routeOf(server('gym.verify')), null);
  });
});

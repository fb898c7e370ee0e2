// The callee of a CLIENT span, from `url.full` (remembered per URL) or `server.address`/`server.port`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { calleeOf } from '../src/analyze/callee.js';
import type { Attributes, SpanRecord } from '../src/span-record.js';
import { bare, toRecords } from './support/fixtures.js';

const [template] = toRecords([bare('HTTP POST', '0000000000000001', null, 0, 1, { kind: 'CLIENT' })]);
const client = (attributes: Attributes): SpanRecord => ({ ...template!, attributes });

describe('calleeOf', () => {
  it('reads host and port from url.full, with the scheme default port, the same on every call', () => {
    for (let i = 0; i < 3; i++) {
      assert.equal(calleeOf(client({ 'url.full': 'http://127.0.0.1:9001/v1/responses' })), '127.0.0.1:9001');
      assert.equal(calleeOf(client({ 'url.full': 'https://api.example.com/v1/chat' })), 'api.example.com:443');
      assert.equal(calleeOf(client({ 'url.full': 'http://model/x' })), 'model:80');
    }
  });

  it('falls back to server.address and server.port when url.full does not parse, every time', () => {
    for (let i = 0; i < 2; i++) {
      assert.equal(calleeOf(client({ 'url.full': 'not a url', 'server.address': 'tools', 'server.port': 9002 })), 'tools:9002');
      assert.equal(calleeOf(client({ 'url.full': 'not a url' })), 'unknown callee');
      assert.equal(calleeOf(client({ 'server.address': 'tools' })), 'tools');
    }
  });

  it('answers right for more distinct URLs than it remembers', () => {
    for (let i = 0; i < 5000; i++) assert.equal(calleeOf(client({ 'url.full': `http://10.0.${i >> 8}.${i & 255}:${8000 + (i % 7)}/r?i=${i}` })), `10.0.${i >> 8}.${i & 255}:${8000 + (i % 7)}`);
    assert.equal(calleeOf(client({ 'url.full': 'http://127.0.0.1:9001/v1/responses' })), '127.0.0.1:9001');
  });
});

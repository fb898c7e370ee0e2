// Model-call capture over real processes: only prefixed calls are captured, in the rollout's
// file, with the call id the response header names; two model servers appending to one file
// at once leave only whole lines.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpClient } from '../../src/http/client.js';
import { CaptureStore } from '../../src/evidence/capture-store.js';
import { MODEL_CALL_ID_HEADER } from '../../src/evidence/model-call-capture.js';
import { startCaptureModel } from './fixtures/model-process.js';
import type { ModelProcess } from './fixtures/model-process.js';

const cleanups: (() => unknown)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gym-capture-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
async function model(dir: string, name: string): Promise<ModelProcess> {
  const m = await startCaptureModel(dir, name);
  cleanups.push(() => m.kill());
  return m;
}

describe('model-call capture', () => {
  it('records prefixed calls in the rollout file, scrubbed, and names each call in a header', async () => {
    const dir = tempDir();
    const m = await model(dir, 'policy');
    const http = createHttpClient({ retry: { maxAttempts: 1 } });
    cleanups.push(() => http.close());
    const plain = await http.post(`${m.url}/v1/responses`, { input: 'hi' });
    assert.equal(plain.headers[MODEL_CALL_ID_HEADER], undefined);
    const a = await http.post(`${m.url}/ng-rollout/3-1/v1/responses`, { input: 'hi', api_key: 'sk-should-never-land-here-0123456789' });
    const b = await http.post(`${m.url}/ng-rollout/3-1/v1/responses`, { input: [{ type: 'function_call_output', call_id: 'c', output: 'x' }] });
    await http.post(`${m.url}/ng-rollout/4-0/v1/responses`, { input: 'other rollout' });
    const store = new CaptureStore(dir);
    const read = store.read('3-1');
    assert.equal(read.unreadable, 0);
    assert.deepEqual(
      read.exchanges.map((e) => e.exchange['model_call_id']),
      [a.headers[MODEL_CALL_ID_HEADER], b.headers[MODEL_CALL_ID_HEADER]],
    );
    const first = read.exchanges[0]!.exchange;
    assert.equal(first['rollout_id'], '3-1');
    assert.deepEqual(first['model_ref'], { type: 'responses_api_models', name: 'policy' });
    assert.equal(first['dialect'], 'responses');
    assert.equal(first['status_code'], 200);
    assert.equal((first['response'] as { id: string }).id, (a.body as { id: string }).id);
    assert.equal((first['request'] as { api_key: string }).api_key, '[REDACTED]');
    assert.ok(!readFileSync(store.pathFor('3-1'), 'utf8').includes('sk-should-never'));
    assert.equal(store.read('4-0').exchanges.length, 1);
    // the unprefixed call went nowhere
    assert.equal(store.usage(['3-1', '4-0']).files, 2);
    assert.ok(!existsSync(join(dir, 'undefined.capture.jsonl')));
  });

  it('never fails a model request when the capture cannot be written', async () => {
    const dir = tempDir();
    // the capture "directory" is a regular file: every append fails
    const notADir = join(dir, 'captures');
    writeFileSync(notADir, 'not a directory');
    const m = await model(notADir, 'policy');
    const http = createHttpClient({ retry: { maxAttempts: 1 } });
    cleanups.push(() => http.close());
    const reply = await http.post<{ id: string }>(`${m.url}/ng-rollout/5-0/v1/responses`, { input: 'hi' });
    assert.equal(reply.status, 200);
    assert.match(reply.body.id, /^resp_policy_/);
    assert.equal(readFileSync(notADir, 'utf8'), 'not a directory');
  });

  it('keeps every line whole when two model servers append to one rollout file at once', async () => {
    const dir = tempDir();
    const [m1, m2] = await Promise.all([model(dir, 'policy_a'), model(dir, 'policy_b')]);
    const http = createHttpClient({ retry: { maxAttempts: 1 } });
    cleanups.push(() => http.close());
    // bodies far larger than a pipe buffer, so a torn write would show
    const big = 'x'.repeat(200_000);
    const perServer = 40;
    const calls = [m1, m2].flatMap((m) => Array.from({ length: perServer }, (_, i) => http.post(`${m.url}/ng-rollout/shared-1/v1/responses`, { input: `${i} ${big}` })));
    const replies = await Promise.all(calls);
    const read = new CaptureStore(dir).read('shared-1');
    assert.equal(read.unreadable, 0);
    assert.equal(read.exchanges.length, 2 * perServer);
    const ids = new Set(read.exchanges.map((e) => e.exchange['model_call_id']));
    assert.deepEqual(ids, new Set(replies.map((r) => r.headers[MODEL_CALL_ID_HEADER])));
    const byServer = (name: string) => read.exchanges.filter((e) => (e.exchange['model_ref'] as { name: string }).name === name).length;
    assert.equal(byServer('policy_a'), perServer);
    assert.equal(byServer('policy_b'), perServer);
  });
});

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import createVllmModel from '../app.js';
import { startFakeVllm } from './fake-vllm.js';
import { startModelServer } from './support.js';
import type { CookieMap } from '@gym/server';
import type { FakeVllm } from './fake-vllm.js';
import type { RunningModelServer } from './support.js';

type Json = Record<string, unknown>;

describe('vllm_model replica lists', () => {
  let replicas: FakeVllm[];
  let server: RunningModelServer;
  before(async () => {
    replicas = await Promise.all(['r0', 'r1', 'r2'].map((name) => startFakeVllm({ name })));
    server = await startModelServer(createVllmModel, 'vllm_model', {
      base_url: replicas.map((r) => r.baseUrl),
      api_key: 'EMPTY',
      model: 'fake-model',
      return_token_id_information: false,
      uses_reasoning_parser: false,
    });
  });
  after(async () => {
    await server.close();
    await Promise.all(replicas.map((r) => r.close()));
  });

  // 40 random sessions miss one of 3 replicas with probability 3·(2/3)^40 ≈ 2e-7
  it('sends every turn of a session to the same replica and spreads sessions over replicas', async () => {
    const used = new Set<string>();
    for (let session = 0; session < 40; session++) {
      let cookies: CookieMap = {};
      const answeredBy = new Set<string>();
      for (let turn = 0; turn < 2; turn++) {
        const res = await server.http.post<Json>(`${server.url}/v1/responses`, { input: `turn ${turn}` }, { cookies });
        cookies = { ...cookies, ...res.cookies };
        const text = ((res.body['output'] as Json[])[0]!['content'] as Json[])[0]!['text'] as string;
        answeredBy.add(text);
      }
      assert.equal(answeredBy.size, 1, `session ${session} hit ${[...answeredBy].join(', ')}`);
      used.add([...answeredBy][0]!);
    }
    assert.equal(used.size, 3);
    assert.equal(
      replicas.reduce((n, r) => n + r.requests.length, 0),
      80,
    );
  });
});

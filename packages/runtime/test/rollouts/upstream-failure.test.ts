// The failures file's `error.upstream`: the cause header read back, and every text in it scrubbed
// the same way — the URL as well as the body (a foreign server's header is not trusted to have
// left its query or path clean).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeUpstreamCause, UPSTREAM_CAUSE_HEADER } from '@gym/server/internal/http/upstream-cause.js';
import { upstreamFailure } from '../../src/rollouts/upstream-failure.js';

const KEY = 'sk-abcdefghijklmnopqrstuvwxyz012345';

describe('upstreamFailure', () => {
  it('is undefined when no server stated a cause', () => {
    assert.equal(upstreamFailure({}, 'boom'), undefined);
  });

  it('scrubs a key-shaped word in the URL and in the body excerpt alike', () => {
    const header = encodeUpstreamCause({ status: 404, method: 'POST', url: `http://vllm:8000/v1/keys/${KEY}/completions`, server: 'VLLMModel___policy' });
    const failure = upstreamFailure({ [UPSTREAM_CAUSE_HEADER]: header }, JSON.stringify(`Hit an exception in agent calling an inner server: {"error":"bad key ${KEY}"}`));
    assert.deepEqual(failure, {
      status: 404,
      method: 'POST',
      url: 'http://vllm:8000/v1/keys/[REDACTED]/completions',
      server: 'VLLMModel___policy',
      body_excerpt: '{"error":"bad key [REDACTED]"}',
    });
  });
});

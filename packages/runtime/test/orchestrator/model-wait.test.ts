// The model readiness wait says what it waits for, counts down, stops on abort, and ends in
// GYM_MODEL_ENDPOINT_UNREACHABLE with advice that works when pasted.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createHttpClient } from '../../../server/src/http/client.js';
import { SKIP_MODEL_WAIT, StartInterruptedError, waitForModelEndpoints } from '../../src/orchestrator/wait-ready.js';
import { applyOverrides, parseOverrides } from '../../../server/src/config/index.js';
import { freePort } from '../support/gym-process.js';

describe('waitForModelEndpoints', () => {
  const http = createHttpClient({ retry: { maxAttempts: 1 } });
  after(() => http.close());

  it('counts down while nothing answers, then fails with the documented code and the last failure', async () => {
    const url = `http://127.0.0.1:${await freePort()}/v1`;
    const lines: string[] = [];
    await assert.rejects(waitForModelEndpoints(http, [url], { timeoutMs: 1500, reportEveryMs: 200, onWaiting: (l) => lines.push(l) }), (error: Error & { code: string }) => {
      assert.equal(error.code, 'GYM_MODEL_ENDPOINT_UNREACHABLE');
      assert.match(error.message, new RegExp(`Model endpoint ${url} did not answer within 2 s \\(GET ${url}/models: .*ECONNREFUSED`));
      assert.ok(error.message.includes(`add ${SKIP_MODEL_WAIT} to the command`));
      return true;
    });
    assert.ok(lines.length >= 2, lines.join('\n'));
    const left = lines.map((l) => Number(/: (\d+) s left/.exec(l)?.[1]));
    assert.equal(left[0], 2);
    for (let i = 1; i < left.length; i++) assert.ok(left[i]! <= left[i - 1]!, `counts down: ${left.join(', ')}`);
    assert.match(lines[0]!, new RegExp(`^waiting for model endpoint ${url}: 2 s left \\(Ctrl-C stops; ${SKIP_MODEL_WAIT} skips the wait\\)$`));
  });

  it('advises an override that parses and applies as pasted', () => {
    assert.deepEqual(applyOverrides({}, parseOverrides([SKIP_MODEL_WAIT])), { model_endpoint_readiness_timeout_seconds: 0 });
  });

  it('stops when its signal aborts', async () => {
    const url = `http://127.0.0.1:${await freePort()}/v1`;
    const abort = new AbortController();
    const waiting = waitForModelEndpoints(http, [url], { timeoutMs: 600_000, signal: abort.signal, onWaiting: () => abort.abort() });
    await assert.rejects(waiting, (error: Error & { code: string }) => error instanceof StartInterruptedError && error.code === 'GYM_START_INTERRUPTED');
  });

  it('returns once the endpoint answers, any status counting', async () => {
    const server = createServer((_req, res) => res.writeHead(401).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const lines: string[] = [];
    await waitForModelEndpoints(http, [`http://127.0.0.1:${port}/v1`], { timeoutMs: 60_000, onWaiting: (l) => lines.push(l) });
    await new Promise((resolve) => server.close(resolve));
    assert.equal(lines.length, 1);
  });
});

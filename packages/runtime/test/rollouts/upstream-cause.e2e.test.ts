// A rollout that fails on an upstream's error answer: a real `gym eval run` with vllm_model in front
// of a real HTTP server answering vLLM's 404 for an unknown model. The failures row names the first
// failure of the chain — its status, URL and the server that called it — with a bounded excerpt of
// its body, scrubbed of the API key and of anything shaped like one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bodyExcerpt, innermostBody, UPSTREAM_BODY_EXCERPT_CHARS } from '../../src/rollouts/upstream-failure.js';
import { runGym } from '../support/gym-process.js';

const API_KEY = 'sk-upstream-cause-test-0123456789';
const OTHER_TOKEN = 'sk-someone-elses-key-abcdefghijklmnop';

describe('the upstream cause of a failed rollout in the failures file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-upstream-cause-'));
  let vllm: Server;
  let failures: Array<{ error: Record<string, unknown> }> = [];
  let vllmPort = 0;

  before(async () => {
    vllm = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        if (request.url === '/v1/models') {
          response.writeHead(200, { 'content-type': 'application/json' });
          return response.end(JSON.stringify({ object: 'list', data: [{ id: 'served-model', object: 'model' }] }));
        }
        // vLLM's answer for a model it does not serve, echoing secrets and padded past the excerpt's bound
        const message = `The model \`foo\` does not exist. (auth ${API_KEY}, Bearer ${OTHER_TOKEN})`;
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ object: 'error', message, type: 'NotFoundError', param: null, code: 404, padding: 'x'.repeat(5000) }));
      });
    });
    await new Promise<void>((resolve) => vllm.listen(0, '127.0.0.1', resolve));
    vllmPort = (vllm.address() as { port: number }).port;
    const output = join(dir, 'rollouts.jsonl');
    const args = ['eval', 'run', '--resources-server', 'example_single_tool_call', '--model-type', 'vllm_model', '--model-url', `http://127.0.0.1:${vllmPort}/v1`];
    const run = await runGym([...args, '--model-api-key', API_KEY, '-m', 'foo', '--limit', '1', '-o', output, '--log-dir', join(dir, 'logs')]);
    assert.equal(run.code, 1, `${run.stdout}\n${run.stderr}`);
    failures = readFileSync(join(dir, 'rollouts_failures.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { error: Record<string, unknown> });
  });
  after(async () => {
    await new Promise<void>((resolve) => vllm.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it("names vLLM's status and URL and the server that called it, beside the agent's 500", () => {
    assert.equal(failures.length, 1);
    const { error } = failures[0]!;
    assert.equal(error['status'], 500);
    const upstream = error['upstream'] as Record<string, unknown>;
    assert.equal(upstream['status'], 404);
    assert.equal(upstream['method'], 'POST');
    assert.equal(upstream['url'], `http://127.0.0.1:${vllmPort}/v1/chat/completions`);
    assert.equal(upstream['server'], 'SimpleResponsesAPIModel___policy_model');
  });

  it("keeps vLLM's own body, unnested, bounded and with no secret", () => {
    const upstream = failures[0]!.error['upstream'] as Record<string, unknown>;
    const excerpt = String(upstream['body_excerpt']);
    assert.ok(excerpt.startsWith('{"object":"error","message":"The model `foo` does not exist.'), excerpt.slice(0, 200));
    assert.equal(excerpt.length, UPSTREAM_BODY_EXCERPT_CHARS + 1);
    assert.ok(excerpt.endsWith('…'));
    const row = JSON.stringify(failures[0]);
    assert.equal(row.includes(API_KEY), false, 'the configured key');
    assert.equal(row.includes(OTHER_TOKEN), false, 'a key-shaped token');
    assert.match(excerpt, /Bearer \[REDACTED\]/);
  });
});

describe('digging the first body out of nested 500 texts', () => {
  it('unwraps every "calling an inner server" level, and leaves any other text as it is', () => {
    const inner = '{"detail":"Not Found"}';
    const model = `Hit an exception in SimpleResponsesAPIModel___m calling an inner server: ${inner}`;
    const agent = `Hit an exception in SimpleResponsesAPIAgent___a calling an inner server: ${JSON.stringify(model)}`;
    assert.equal(innermostBody(JSON.stringify(agent)), inner);
    assert.equal(innermostBody('plain words'), 'plain words');
    assert.equal(innermostBody(JSON.stringify(`Hit an exception in X calling an inner server: `)), '');
  });

  it('redacts key-shaped words in an excerpt', () => {
    assert.equal(bodyExcerpt('token hf_abcdefghijklmnopqrstuvwxyz and nvapi-0123456789abcdefXYZ'), 'token [REDACTED] and [REDACTED]');
  });
});

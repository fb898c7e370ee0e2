// One rule for what a secret key is, on every output that redacts: the same table of keys goes
// through the config dump, the config a server receives, the text scrubber built from a config,
// capture files and an upstream's echoed headers, and each hides exactly the secret ones, as
// the one marker.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { REDACTED as NAMES_REDACTED } from '@gym/names';
import { isSecretKey, REDACTED, redactSecrets } from '../../src/config/redact.js';
import { createSecretScrubber, secretValuesOf } from '../../src/config/secret-scrub.js';
import { configForServer } from '../../src/config/server-secrets.js';
import { scrubCaptureSecrets } from '../../src/evidence/scrub.js';
import { createHttpClient } from '../../src/http/index.js';
import { OpenAIUpstream } from '../../src/upstream/openai-upstream.js';
import { REDACTED as UPSTREAM_REDACTED } from '../../src/upstream/redact-secrets.js';

/** Keys and whether each holds a secret: config keys, JSON body keys and header names alike. */
const KEYS: ReadonlyArray<readonly [key: string, secret: boolean]> = [
  ['api_key', true],
  ['openai_api_key', true],
  ['apiKey', true],
  ['clientSecret', true],
  ['client_secret', true],
  ['hf_token', true],
  ['access_token', true],
  ['x-api-key', true],
  ['Authorization', true],
  ['X-Auth-Token', true],
  ['x-auth', true],
  ['otlp_headers', true],
  ['password', true],
  ['db_passwd', true],
  ['session_cookie', true],
  ['aws_credentials', true],
  ['secret_keys', true],
  ['max_tokens', false],
  ['token_ids', false],
  ['secret_name', false],
  ['token', false],
  ['key', false],
  ['model', false],
  ['keyword', false],
  ['x-request-id', false],
];

// values that do not look like credentials by themselves, so only the key decides
const valueOf = (i: number): string => `plain-value-${i}-abcdef`;

describe('one rule for secret keys, on every output that redacts', () => {
  it('one marker everywhere', () => {
    assert.equal(REDACTED, NAMES_REDACTED);
    assert.equal(UPSTREAM_REDACTED, NAMES_REDACTED);
  });

  it('the rule itself', () => {
    assert.deepEqual(
      KEYS.map(([k]) => [k, isSecretKey(k)]),
      KEYS.map(([k, s]) => [k, s]),
    );
  });

  it('config dumps (env resolve, the head server, the config files written for servers)', () => {
    const tree = Object.fromEntries(KEYS.map(([k], i) => [k, valueOf(i)]));
    const dumped = redactSecrets(tree);
    for (const [[key, secret], i] of KEYS.map((k, i) => [k, i] as const)) assert.equal(dumped[key], secret ? REDACTED : valueOf(i), key);
  });

  it('the config a server receives: the secrets of the other blocks', () => {
    const block = Object.fromEntries(KEYS.map(([k], i) => [k, valueOf(i)]));
    const forMine = configForServer({ mine: block, other: block }, 'mine');
    for (const [[key, secret], i] of KEYS.map((k, i) => [k, i] as const)) {
      assert.equal((forMine['mine'] as Record<string, unknown>)[key], valueOf(i), key);
      assert.equal((forMine['other'] as Record<string, unknown>)[key], secret ? REDACTED : valueOf(i), key);
    }
  });

  it('text (errors, logs, spans, results, server output): the values of the secret keys are scrubbed', () => {
    const scrub = createSecretScrubber(secretValuesOf({ block: Object.fromEntries(KEYS.map(([k], i) => [k, valueOf(i)])) }))!;
    for (const [[key, secret], i] of KEYS.map((k, i) => [k, i] as const)) assert.equal(scrub(`echo ${JSON.stringify(valueOf(i))}`), `echo "${secret ? REDACTED : valueOf(i)}"`, key);
  });

  it('capture files', () => {
    const body = { nested: Object.fromEntries(KEYS.map(([k], i) => [k, valueOf(i)])) };
    const captured = scrubCaptureSecrets(body) as { nested: Record<string, unknown> };
    for (const [[key, secret], i] of KEYS.map((k, i) => [k, i] as const)) assert.equal(captured.nested[key], secret ? REDACTED : valueOf(i), key);
  });

  describe("an upstream's error that echoes the request's headers", () => {
    let server: Server;
    let url: string;
    before(async () => {
      server = createServer((req, res) => {
        req.resume();
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'denied', headers: req.headers } }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    it('hides the values of the secret header names only', async () => {
      const http = createHttpClient({ retry: { maxAttempts: 1 } });
      try {
        const defaultHeaders = Object.fromEntries(KEYS.map(([k], i) => [k, valueOf(i)]));
        const upstream = new OpenAIUpstream({ http, baseUrl: url, apiKey: '', defaultHeaders, propagateTraceparent: false });
        const err = await upstream.post('/responses', {}).then(
          () => assert.fail('the upstream answered 401'),
          (e: unknown) => e as { bodyText: string },
        );
        for (const [[key, secret], i] of KEYS.map((k, i) => [k, i] as const)) {
          if (key === 'Authorization' || key === 'x-request-id') continue; // sent by the client itself
          assert.equal(err.bodyText.includes(valueOf(i)), !secret, `${key}: ${err.bodyText}`);
        }
      } finally {
        await http.close();
      }
    });
  });
});

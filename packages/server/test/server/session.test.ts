import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomUUID } from 'node:crypto';
import { parseSetCookie } from '../../src/http/index.js';
import { createSessionConfig, signSessionId, verifySessionCookie } from '../../src/server/session.js';
import { weather } from './weather-server.js';
import type { FastifyInstance } from 'fastify';

describe('session cookies', () => {
  let app: FastifyInstance;
  before(() => {
    app = weather.build({ name: 'weather_a', sessionSecret: 'test-secret' });
  });
  after(() => app.close());

  const whoami = (cookie?: string) => app.inject({ method: 'POST', url: '/whoami', payload: {}, headers: cookie === undefined ? {} : { cookie } });

  it('starts a new session with a signed cookie named after the server', async () => {
    const res = await whoami();
    const setCookie = res.headers['set-cookie'] as string;
    assert.match(setCookie, /^SimpleResourcesServer___weather_a=[0-9a-f-]{36}\.[\w-]+; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/);
    const cookies = parseSetCookie(setCookie);
    assert.equal(res.json().session, cookies.SimpleResourcesServer___weather_a?.split('.')[0]);
    assert.equal(res.json().isNew, true);
  });

  it('refuses a forged signature for a session whose cookie verified before (the remembered HMAC is compared, not trusted)', async () => {
    const first = await whoami();
    const [pair] = (first.headers['set-cookie'] as string).split(';');
    assert.equal((await whoami(pair)).json().isNew, false, 'verified once: its HMAC is remembered');
    const [name, value] = pair!.split('=') as [string, string];
    const id = value.slice(0, value.lastIndexOf('.'));
    const forged = await whoami(`${name}=${id}.${Buffer.alloc(32, 7).toString('base64url')}`);
    assert.equal(forged.json().isNew, true);
    assert.notEqual(forged.json().session, id);
    assert.equal((await whoami(pair)).json().session, id, 'the real cookie still verifies');
  });

  it('keeps the session when the cookie comes back, without setting it again', async () => {
    const first = await whoami();
    const [pair] = (first.headers['set-cookie'] as string).split(';');
    const second = await whoami(`other=1; ${pair}`);
    assert.equal(second.json().session, first.json().session);
    assert.equal(second.json().isNew, false);
    assert.equal(second.headers['set-cookie'], undefined);
  });

  it('rejects a forged cookie and starts a new session', async () => {
    const first = await whoami();
    const value = parseSetCookie(first.headers['set-cookie']).SimpleResourcesServer___weather_a ?? '';
    const [id] = value.split('.');
    const forgedId = `${'0'.repeat(8)}${(id ?? '').slice(8)}`;
    for (const forged of [`${forgedId}.${value.split('.')[1]}`, `${id}.AAAA`, `${id}`, 'garbage']) {
      const res = await whoami(`SimpleResourcesServer___weather_a=${forged}`);
      assert.equal(res.json().isNew, true, forged);
      assert.notEqual(res.json().session, id);
      assert.ok(res.headers['set-cookie']);
    }
  });

  it("does not accept another server's cookie (different secret)", async () => {
    const other = weather.build({ name: 'weather_a', sessionSecret: 'other-secret' });
    const first = await other.inject({ method: 'POST', url: '/whoami', payload: {} });
    const [pair] = (first.headers['set-cookie'] as string).split(';');
    const res = await whoami(pair);
    assert.equal(res.json().isNew, true);
    await other.close();
  });
});

describe('the session signature', () => {
  it('is HMAC-SHA256 of the id under the secret, for secrets shorter, as long as and longer than a block', () => {
    for (const secret of ['s', 'k'.repeat(64), 'long-'.repeat(40), 'ünïcode-secret']) {
      const config = createSessionConfig('c', secret);
      const id = randomUUID();
      assert.equal(signSessionId(id, config), `${id}.${createHmac('sha256', Buffer.from(secret, 'utf8')).update(id).digest('base64url')}`);
      assert.equal(verifySessionCookie(signSessionId(id, config), createSessionConfig('c', secret)), id);
      assert.equal(verifySessionCookie(signSessionId(id, config), createSessionConfig('c', `${secret}x`)), undefined);
    }
  });
});

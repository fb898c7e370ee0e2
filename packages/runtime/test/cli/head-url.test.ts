// One way to name the head server: --head-url, head_server.* overrides, GYM_HEAD_URL, env.yaml.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findHeadUrl, headUrlOverrides, parseHeadUrl } from '../../src/cli/head-url.js';
import { toLoadConfigOptions } from '../../src/cli/config-options.js';
import { applyOverrides, loadConfig, parseOverrides } from '../../../server/src/config/index.js';

describe('parseHeadUrl', () => {
  it('accepts a URL, host:port, or a bare port', () => {
    assert.equal(parseHeadUrl('http://127.0.0.1:13000/', '--head-url'), 'http://127.0.0.1:13000');
    assert.equal(parseHeadUrl('localhost:13000', '--head-url'), 'http://localhost:13000');
    assert.equal(parseHeadUrl('13000', '--head-url'), 'http://127.0.0.1:13000');
    assert.equal(parseHeadUrl('https://head.example:8443', '--head-url'), 'https://head.example:8443');
  });

  it('names the source of a text that is no address', () => {
    assert.throws(
      () => parseHeadUrl('ftp://x:1', 'GYM_HEAD_URL'),
      (e: Error & { code: string }) => e.code === 'GYM_HEAD_URL_INVALID' && /GYM_HEAD_URL 'ftp:\/\/x:1'/.test(e.message),
    );
    assert.throws(() => parseHeadUrl('http://', '--head-url'), /GYM_HEAD_URL_INVALID|not a head server address/);
  });
});

describe('plain head_server.port= (a key with a built-in default)', () => {
  it('is accepted without + even when no file sets it', () => {
    assert.deepEqual(applyOverrides({}, parseOverrides(['head_server.port=13000'])), { head_server: { port: 13000 } });
    assert.deepEqual(applyOverrides({}, parseOverrides(['model_endpoint_readiness_timeout_seconds=0'])), { model_endpoint_readiness_timeout_seconds: 0 });
  });

  it('still refuses a plain override of a key nobody defines', () => {
    assert.throws(() => applyOverrides({}, parseOverrides(['head_server.prot=13000'])), /no such key/);
  });
});

describe('findHeadUrl', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-head-url-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('defaults to 127.0.0.1:11000', async () => {
    assert.equal(await findHeadUrl({ cwd: dir, env: {} }), 'http://127.0.0.1:11000');
  });

  it('reads env.yaml, then GYM_HEAD_URL over it, then the overrides over both, then --head-url over all', async () => {
    writeFileSync(join(dir, 'env.yaml'), 'head_server:\n  port: 12000\n');
    assert.equal(await findHeadUrl({ cwd: dir, env: {} }), 'http://127.0.0.1:12000');
    assert.equal(await findHeadUrl({ cwd: dir, env: { GYM_HEAD_URL: 'localhost:12500' } }), 'http://localhost:12500');
    assert.equal(await findHeadUrl({ cwd: dir, env: { GYM_HEAD_URL: 'localhost:12500' }, overrides: ['head_server.port=13000'] }), 'http://localhost:13000');
    assert.equal(await findHeadUrl({ cwd: dir, env: { GYM_HEAD_URL: 'localhost:12500' }, overrides: ['head_server.port=13000'], flag: '14000' }), 'http://127.0.0.1:14000');
    rmSync(join(dir, 'env.yaml'));
  });

  it('is where gym env start puts the head server: the same overrides and variable', async () => {
    const options = toLoadConfigOptions({}, ['head_server.port=13001'], dir, { GYM_HEAD_URL: '127.0.0.2:12999' });
    const config = await loadConfig({ ...options, env: {} });
    assert.deepEqual(config.head, { host: '127.0.0.2', port: 13001 });
    assert.deepEqual(headUrlOverrides({ GYM_HEAD_URL: 'http://[::1]:9000' }), ['++head_server.host=::1', '++head_server.port=9000']);
  });
});

// A span-group change after start-up reaches every gate of a running gym server process: the
// SERVER span (server), gym.verify (verify) and the CLIENT span (http_client) appear and
// disappear with the spec, and the rollout id stays on whatever spans exist.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { telemetryEnv } from '../support/rollout-tree.js';

const VERIFY = { responses_create_params: {}, response: { output: [] } };
const FIXTURE = new URL('./fixtures/spec-switch-server.ts', import.meta.url).pathname;

interface Span {
  name: string;
  kind: string;
  attributes: Record<string, unknown>;
}

describe('span groups changed while a server runs', () => {
  let child: ChildProcess;
  let url: string;
  let dir: string;
  let spans: Span[];

  const post = async (path: string, body: unknown, rolloutId: string) => {
    const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', baggage: `nemo.gym.rollout.id=${rolloutId}` }, body: JSON.stringify(body) });
    assert.equal(res.status, 200, await res.text());
  };
  const namesOf = (rolloutId: string) =>
    spans
      .filter((s) => s.attributes['nemo.gym.rollout.id'] === rolloutId)
      .map((s) => `${s.kind} ${s.name}`)
      .sort();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gym-spec-switch-'));
    const file = join(dir, 'server.log');
    child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', FIXTURE], {
      env: telemetryEnv({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'server', GYM_TELEMETRY_CONSOLE_FILE: file }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
    url = `http://127.0.0.1:${/listening (\d+)/.exec(chunk.toString())![1]}`;

    await post('/verify', VERIFY, 'step-1');
    await post('/set_span_groups', { spec: 'server,verify,http_client' }, 'switch-1');
    await post('/verify', VERIFY, 'step-2');
    await post('/ping_self', {}, 'step-2-client');
    await post('/set_span_groups', { spec: 'verify' }, 'switch-2');
    await post('/verify', VERIFY, 'step-3');
    await post('/ping_self', {}, 'step-3-client');
    child.kill('SIGTERM');
    await once(child, 'exit');
    spans = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"type":"span"'))
      .map((l) => JSON.parse(l) as Span);
  });
  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts with only the groups of the spec given at start-up', () => {
    assert.deepEqual(namesOf('step-1'), ['SERVER POST /verify']);
  });

  it('adds the groups a later spec enables, in the same process', () => {
    assert.deepEqual(namesOf('step-2'), ['INTERNAL gym.verify', 'SERVER POST /verify']);
    assert.deepEqual(namesOf('step-2-client'), ['CLIENT HTTP POST', 'SERVER POST /ping_self', 'SERVER POST /seed_session']);
  });

  it('removes the groups a later spec leaves out, keeping the rollout id on the spans that remain', () => {
    assert.deepEqual(namesOf('step-3'), ['INTERNAL gym.verify']);
    assert.deepEqual(namesOf('step-3-client'), []);
  });
});

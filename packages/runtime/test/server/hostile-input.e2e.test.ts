// Hostile bodies against the three real server processes of `gym env start`: wrong field types,
// deep nesting, `null`, `__proto__`, and a seeded fuzz of mutated /run and /v1/responses bodies.
// Every answer must be a 2xx or a 4xx naming the field; never a 500, never a dead server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { readRecords } from '../support/console-records.js';
import { REPO_ROOT, startGymEnv } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';
import type { GymEnv } from '../support/gym-process.js';

const AGENT = 'example_single_tool_call_simple_agent';
const ROW = JSON.parse(readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!) as Record<string, any>;

async function postRaw(url: string, text: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
  const raw = await res.text();
  let body: unknown = raw;
  try {
    body = JSON.parse(raw);
  } catch {
    // keep the text
  }
  return { status: res.status, body };
}
const post = (url: string, body: unknown) => postRaw(url, JSON.stringify(body));
/** GET `url` with the given `Host` header (fetch will not send a foreign one). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
const nested = (depth: number, leaf = '0') => '['.repeat(depth) + leaf + ']'.repeat(depth);

/** mulberry32: a small seeded generator, so a failing fuzz case can be replayed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_VALUES: unknown[] = [9, 1.5, -1, null, true, false, '', 'x', [], {}, [null], [9], [[]], [{}], { type: 9 }, { role: 'nobody' }, { type: 'function_call' }, 'x'.repeat(1000), 1e308];

/** Returns the JSON text of `base` with one random mutation (or a few), chosen by `random`. */
function mutate(base: unknown, random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const tree = structuredClone(base) as Record<string, unknown>;
  const containers: Array<{ parent: any; key: string | number }> = [];
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object') return;
    for (const key of Object.keys(node)) {
      const k = Array.isArray(node) ? Number(key) : key;
      containers.push({ parent: node, key: k });
      walk((node as any)[k]);
    }
  };
  walk(tree);
  const rounds = 1 + Math.floor(random() * 3);
  let deep: string | undefined;
  for (let r = 0; r < rounds; r++) {
    const target = pick(containers);
    const op = random();
    if (op < 0.55) target.parent[target.key] = structuredClone(pick(ODD_VALUES));
    else if (op < 0.75 && !Array.isArray(target.parent)) delete target.parent[target.key];
    else if (op < 0.85) target.parent[target.key] = '__DEEP__';
    else if (op < 0.95 && !Array.isArray(target.parent)) target.parent['__proto__x'] = { polluted: true };
    else target.parent[target.key] = [target.parent[target.key], target.parent[target.key]];
  }
  let text = JSON.stringify(tree);
  if (text.includes('"__DEEP__"')) {
    deep = nested(200 + Math.floor(random() * 6000));
    text = text.replace('"__DEEP__"', deep);
  }
  // a real `__proto__` key, which no JS object literal can carry into JSON.stringify
  text = text.replaceAll('"__proto__x"', '"__proto__"');
  if (random() < 0.05) text = pick(['null', '[]', '"text"', '5', 'true', '{}', '{"a":', nested(9000)]);
  return text;
}

describe('hostile input to real servers', () => {
  let env: GymEnv;
  before(async () => {
    env = await startGymEnv(
      [
        '--resources-server',
        'example_single_tool_call',
        '--model-type',
        'simulated_model',
        '++telemetry.enabled=true',
        '++telemetry.exporter=console',
        '++telemetry.span_groups=all',
        '++example_single_tool_call.resources_servers.example_single_tool_call.allowed_hosts=[gym-box.internal]',
      ],
      { env: telemetryEnv({}) },
    );
  });
  after(async () => env?.dispose());

  it('answers wrong field types with a 422 naming the field', async () => {
    const run = `${env.url(AGENT)}/run`;
    const model = `${env.url('policy_model')}/v1/responses`;
    const cases: Array<[string, unknown, (string | number)[]]> = [
      [run, { responses_create_params: { input: 9 } }, ['body', 'responses_create_params', 'input']],
      [run, { responses_create_params: { input: [null] } }, ['body', 'responses_create_params', 'input', 0]],
      [run, { responses_create_params: { input: 'hi', tools: 1.5 } }, ['body', 'responses_create_params', 'tools']],
      [model, { input: 9 }, ['body', 'input']],
      [model, { input: [null] }, ['body', 'input', 0]],
      [model, { input: 'x', tools: [1] }, ['body', 'tools', 0]],
      [model, { input: [{ role: 'user', content: 5 }] }, ['body', 'input', 0, 'content']],
      [model, { input: [{ type: 'function_call_output', call_id: 'c', output: { x: 1 } }] }, ['body', 'input', 0, 'output']],
    ];
    for (const [url, body, loc] of cases) {
      const res = await post(url, body);
      assert.equal(res.status, 422, `${url} ${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.detail[0].loc, loc, JSON.stringify(res.body));
    }
  });

  it('refuses a literal null body with a 422 instead of taking it as {}', async () => {
    for (const url of [`${env.url('policy_model')}/v1/responses`, `${env.url(AGENT)}/run`, `${env.url('example_single_tool_call')}/seed_session`]) {
      const res = await postRaw(url, 'null');
      assert.equal(res.status, 422, url);
      assert.deepEqual(res.body.detail, [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' }]);
    }
  });

  it('answers JSON nested 5,000+ deep with a 400 saying so, on every server', async () => {
    const deepInput = `{"input":${nested(6000)}}`;
    for (const url of [`${env.url('policy_model')}/v1/responses`, `${env.url(AGENT)}/run`, `${env.url('example_single_tool_call')}/verify`]) {
      const res = await postRaw(url, deepInput);
      assert.equal(res.status, 400, `${url}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.detail[0].type, 'json_too_deep');
      assert.match(res.body.detail[0].msg, /nested deeper than 512 levels/);
    }
  });

  it('answers only Host names it serves: a rebinding name gets a 403 on every server and the head server', async () => {
    for (const url of [...[AGENT, 'policy_model', 'example_single_tool_call'].map((n) => env.url(n)), env.headUrl]) {
      const port = new URL(url).port;
      const foreign = await getWithHost(`${url}/`, `attacker.example:${port}`);
      assert.equal(foreign.status, 403, url);
      assert.match(JSON.parse(foreign.body).detail, /DNS-rebinding/);
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`]) assert.equal((await getWithHost(`${url}/`, host)).status, 200, `${url} ${host}`);
    }
    const resources = env.url('example_single_tool_call');
    assert.equal((await getWithHost(`${resources}/`, 'gym-box.internal')).status, 200, 'a configured allowed_hosts name');
    assert.equal((await getWithHost(`${env.url(AGENT)}/`, 'gym-box.internal')).status, 403, 'configured for another server only');
  });

  it('names a __proto__ key as such, not as a JSON decode error', async () => {
    const res = await postRaw(`${env.url('policy_model')}/v1/responses`, '{"input":"hi","metadata":{"__proto__":{"admin":"1"}}}');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.detail[0].loc, ['body', 'metadata', '__proto__']);
    assert.match(res.body.detail[0].msg, /__proto__/);
    assert.doesNotMatch(res.body.detail[0].msg, /decode/);
  });

  it('answers 100 seeded mutations of /run and of /v1/responses bodies with 2xx or 4xx, never 500', async () => {
    // GYM_FUZZ_SEED replays or widens the search; the default seed is what CI runs
    const random = seeded(Number(process.env['GYM_FUZZ_SEED'] ?? 20260912));
    const targets = [
      { url: `${env.url(AGENT)}/run`, base: ROW },
      { url: `${env.url('policy_model')}/v1/responses`, base: ROW.responses_create_params },
    ];
    const failures: string[] = [];
    const seen = new Map<number, number>();
    for (const { url, base } of targets) {
      for (let i = 0; i < 100; i++) {
        const text = mutate(base, random);
        const res = await postRaw(url, text);
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${url} #${i} ${text.slice(0, 200)} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      }
    }
    assert.deepEqual(failures, []);
    // the fuzz really reached both sides of the edge
    assert.ok((seen.get(200) ?? 0) > 0 && [...seen.keys()].some((s) => s >= 400), JSON.stringify([...seen]));
    for (const name of [AGENT, 'policy_model', 'example_single_tool_call']) {
      assert.equal((await fetch(`${env.url(name)}/`)).status, 200, `${name} still serves`);
    }
  });

  // last: it stops the environment to read the spans it wrote
  it('refuses a /verify body before gym.verify starts, so no verify span claims a reply that failed', async () => {
    const verify = `${env.url('example_single_tool_call')}/verify`;
    const deep = await postRaw(verify, `{"responses_create_params":{},"response":{"output":[]},"extra":${nested(3000)}}`);
    assert.equal(deep.status, 400);
    const untyped = await post(verify, { responses_create_params: {}, response: { output: [null] } });
    assert.equal(untyped.status, 422);
    assert.deepEqual(untyped.body.detail[0].loc, ['body', 'response', 'output', 0]);
    assert.equal(await env.stop(), 143);
    const { byFile } = readRecords(env.logDir);
    const spans = byFile['example_single_tool_call.log'] ?? [];
    const refused = spans.filter((s) => s.name === 'POST /verify' && s.attributes['http.response.status_code'] !== 200);
    assert.ok(refused.some((s) => s.attributes['http.response.status_code'] === 400) && refused.some((s) => s.attributes['http.response.status_code'] === 422));
    const refusedIds = new Set(refused.map((s) => s.span_id));
    // gym.verify spans exist (the fuzz's good rollouts), but none under a refused request
    assert.ok(spans.some((s) => s.name === 'gym.verify'));
    assert.deepEqual(
      spans.filter((s) => s.name === 'gym.verify' && refusedIds.has(s.parent_span_id ?? '')),
      [],
    );
  });
});

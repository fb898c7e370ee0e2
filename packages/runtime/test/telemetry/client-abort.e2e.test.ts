// A caller that gives up on `POST /run` (its socket closes while the agent still waits for a slow
// model) must not leave the agent's SERVER span open until shutdown: it ends when the caller goes,
// as an error "client aborted", and reaches the log file while the environment still runs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { readRecords } from '../support/console-records.js';
import type { SpanLine } from '../support/console-records.js';
import { REPO_ROOT, startGymEnv } from '../support/gym-process.js';
import type { GymEnv } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const AGENT = 'example_single_tool_call_simple_agent';
const ROW = readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;
const MODEL_LATENCY_MS = 4000;
const ABORTED = 12;

function abortedRunSpans(env: GymEnv): SpanLine[] {
  return readRecords(env.logDir).spans.filter((s) => s.name === 'POST /run' && s.status.message === 'client aborted');
}

describe('a caller that gives up on /run', () => {
  let env: GymEnv;
  let spans: SpanLine[] = [];

  before(async () => {
    env = await startGymEnv(
      ['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model', `++policy_model.responses_api_models.simulated_model.latency.fixed_ms=${MODEL_LATENCY_MS}`],
      // spans leave every 100 ms, so the test sees each rollout's /seed_session soon after it happened
      { env: telemetryEnv({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'server,rollout', OTEL_BSP_SCHEDULE_DELAY: '100' }) },
    );
    const controllers = Array.from({ length: ABORTED }, () => new AbortController());
    const answers = controllers.map((controller) => fetch(`${env.url(AGENT)}/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ROW, signal: controller.signal }));
    // abort only once every rollout is under way in the agent (it has seeded its session and now
    // waits for the slow model): a fixed pause lost the race on a busy machine
    const seeded = () => readRecords(env.logDir).spans.filter((s) => s.name === 'POST /seed_session').length;
    for (let i = 0; i < 600 && seeded() < ABORTED; i++) await sleep(20);
    assert.equal(seeded(), ABORTED, 'every rollout seeded its session before the model answered');
    for (const controller of controllers) controller.abort();
    for (const answer of answers) await assert.rejects(answer, { name: 'AbortError' });
    // the spans must reach the file while the environment runs, well before the model would answer
    for (let i = 0; i < 100 && abortedRunSpans(env).length < ABORTED; i++) await sleep(50);
    spans = abortedRunSpans(env);
  });
  after(async () => env?.dispose());

  it('ends the SERVER span of every aborted request while the server runs, as an error', () => {
    assert.equal(spans.length, ABORTED, `${spans.length} of ${ABORTED} aborted /run spans written`);
    for (const span of spans) assert.equal(span.status.code, 'ERROR');
  });

  it('ends it when the caller went, not when the rollout finished', () => {
    for (const span of spans) assert.ok(span.duration_ms < MODEL_LATENCY_MS, `POST /run lasted ${span.duration_ms} ms; the model answers after ${MODEL_LATENCY_MS} ms`);
  });

  it('still ends every span once at shutdown, the aborted ones not twice', async () => {
    assert.equal(await env.stop(), 143);
    const runSpans = readRecords(env.logDir).spans.filter((s) => s.name === 'POST /run');
    assert.equal(runSpans.length, ABORTED);
    assert.equal(new Set(runSpans.map((s) => s.span_id)).size, ABORTED);
  });
});

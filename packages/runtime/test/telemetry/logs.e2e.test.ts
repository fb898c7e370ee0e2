// Logs inside a request carry its trace; with logs_enabled they are exported as log records too.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readRecords } from '../support/console-records.js';
import { startGymEnv } from '../support/gym-process.js';
import type { GymEnv } from '../support/gym-process.js';
import { telemetryEnv } from '../support/rollout-tree.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('correlated logs', () => {
  let env: GymEnv;
  let status: number;
  before(async () => {
    env = await startGymEnv(['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'], {
      env: telemetryEnv({ NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_LOGS_ENABLED: '1' }),
    });
    const res = await fetch(`${env.url('example_single_tool_call')}/get_weather`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${TRACE}-00f067aa0ba902b7-01` },
      body: JSON.stringify({ city: { note: 'do-not-log-me' } }),
    });
    status = res.status;
    assert.equal(await env.stop(), 143);
  });
  after(async () => env?.dispose());

  it('puts the trace and span ids on the console log line written inside the request', () => {
    assert.equal(status, 422);
    const lines = readFileSync(join(env.logDir, 'example_single_tool_call.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('request body failed validation') && l.startsWith('{"level"'));
    assert.equal(lines.length, 1);
    const pinoLine = JSON.parse(lines[0]!) as Record<string, unknown>;
    assert.equal(pinoLine['trace_id'], TRACE);
    assert.match(String(pinoLine['span_id']), /^[0-9a-f]{16}$/);
    assert.ok(!lines[0]!.includes('do-not-log-me'), 'the log names the field, not the value');
  });

  it('exports it as an OpenTelemetry log record of the same span', () => {
    const { logs, spans } = readRecords(env.logDir);
    const record = logs.find((l) => l['body'] === 'request body failed validation');
    assert.ok(record, 'log record exported');
    assert.equal(record['trace_id'], TRACE);
    const server = spans.find((s) => s.trace_id === TRACE && s.name === 'POST /get_weather');
    assert.equal(record['span_id'], server?.span_id);
    assert.equal(server?.attributes['http.response.status_code'], 422);
  });
});

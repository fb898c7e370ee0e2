import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseInputRows } from '../../src/rollouts/input-rows.js';
import { materializeRows } from '../../src/rollouts/materialize.js';

const line = (q: string, extra = '') => `{"responses_create_params":{"input":"${q}"}${extra}}`;
const rowsOf = (...lines: string[]) => parseInputRows(lines.join('\n'), 'in.jsonl').rows;

describe('materializeRows', () => {
  it('produces exactly N rows × repeats with task and rollout indices in aabbcc order', () => {
    const rows = materializeRows(rowsOf(line('a'), line('b'), line('c')), { numRepeats: 3, defaultAgent: 'ag' });
    assert.deepEqual(
      rows.map((r) => [r._ng_task_index, r._ng_rollout_index]),
      [
        [0, 0],
        [0, 1],
        [0, 2],
        [1, 0],
        [1, 1],
        [1, 2],
        [2, 0],
        [2, 1],
        [2, 2],
      ],
    );
    assert.deepEqual(rows[0]!.agent_ref, { name: 'ag' });
  });

  it('gives identical lines one task index and keeps rollout indices unique within it', () => {
    const rows = materializeRows(rowsOf(line('a'), line('b'), line('a')), { numRepeats: 2, defaultAgent: 'ag' });
    assert.deepEqual(
      rows.map((r) => `${r._ng_task_index}:${r._ng_rollout_index}`),
      ['0:0', '0:1', '1:0', '1:1', '0:2', '0:3'],
    );
  });

  it('honours a task index the row supplies and an agent_ref it carries', () => {
    const rows = materializeRows(rowsOf(line('a', ',"_ng_task_index":42,"agent_ref":{"type":"responses_api_agents","name":"other"}')), { defaultAgent: 'ag' });
    assert.equal(rows[0]!._ng_task_index, 42);
    assert.equal(rows[0]!.agent_ref.name, 'other');
  });

  it('merges parameter overrides shallowly and adds a per-rollout seed to metadata.extra_body', () => {
    const rows = materializeRows(rowsOf('{"responses_create_params":{"input":"q","temperature":1,"metadata":{"extra_body":"{\\"x\\":1}","k":"v"}}}'), {
      numRepeats: 2,
      defaultAgent: 'ag',
      addSeed: true,
      paramOverrides: { temperature: 0.2, top_p: 0.9 },
    });
    assert.equal(rows[1]!.responses_create_params['temperature'], 0.2);
    assert.equal(rows[1]!.responses_create_params['top_p'], 0.9);
    assert.deepEqual(rows[1]!.responses_create_params['metadata'], { extra_body: '{"x":1,"seed":1}', k: 'v' });
    assert.equal((rows[0]!.responses_create_params['metadata'] as Record<string, string>)['extra_body'], '{"x":1,"seed":0}');
  });

  it('keeps only the first `limit` rows', () => {
    assert.equal(materializeRows(rowsOf(line('a'), line('b'), line('c')), { limit: 2, defaultAgent: 'ag' }).length, 2);
  });

  it('names the input lines of rows without an agent when none is given', () => {
    assert.throws(
      () => materializeRows(rowsOf(line('a'), line('b')), {}),
      (err: Error & { code?: string }) => err.code === 'GYM_ROLLOUT_NO_AGENT_REF' && /line\(s\) 1, 2/.test(err.message),
    );
  });
});

describe('parseInputRows', () => {
  const text = [line('a'), 'not json', '', '[1,2]', '{"no_params":true}', line('b')].join('\n');

  it('reports malformed lines with their line numbers and keeps the valid ones', () => {
    const parsed = parseInputRows(text, 'in.jsonl');
    assert.deepEqual(
      parsed.rows.map((r) => r.lineNumber),
      [1, 6],
    );
    assert.deepEqual(
      parsed.malformed.map((m) => m.lineNumber),
      [2, 4, 5],
    );
    assert.match(parsed.malformed[2]!.reason, /responses_create_params/);
  });

  it('names what a line holds when it is JSON but not an object (a literal null is "null")', () => {
    const parsed = parseInputRows(['null', '[1]', '7', line('a')].join('\n'), 'in.jsonl');
    assert.deepEqual(
      parsed.malformed.map((m) => m.reason),
      ['not a JSON object (null)', 'not a JSON object (array)', 'not a JSON object (number)'],
    );
  });

  it('fails with every bad line number under strict input', () => {
    assert.throws(
      () => parseInputRows(text, 'in.jsonl', true),
      (err: Error & { code?: string }) => err.code === 'GYM_ROLLOUT_INPUT_MALFORMED' && /line 2: .*line 4: .*line 5: /.test(err.message),
    );
  });
});

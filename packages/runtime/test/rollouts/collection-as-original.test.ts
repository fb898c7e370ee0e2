/**
 * Collection as the original does it: prompt configs, dataset types (`split`), several datasets
 * and agents, and the per-agent dict form of `num_repeats`, against real agent servers.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectRollouts } from '../../src/rollouts/collect.js';
import { fillTemplate } from '../../src/rollouts/prompt-config.js';
import { keysOf, readRows, startTestAgent } from './test-agent.js';
import type { CollectionEnvironment } from '../../src/rollouts/environment.js';
import type { TestAgent } from './test-agent.js';

const cleanups: (() => unknown)[] = [];
after(async () => {
  for (const c of cleanups.reverse()) await c();
});

function tempDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'gym-collect-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const jsonl = (...rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

/** Two real agents; each answers with what its /run received. */
async function twoAgents(config: (a: string, b: string) => Record<string, unknown>): Promise<{ a: TestAgent; b: TestAgent; environment: CollectionEnvironment }> {
  const echo = (body: Record<string, unknown>) => ({ reward: 1, got_input: (body['responses_create_params'] as Record<string, unknown>)['input'] });
  const a = await startTestAgent({ name: 'agent_a', run: echo });
  const b = await startTestAgent({ name: 'agent_b', run: echo });
  cleanups.push(
    () => a.close(),
    () => b.close(),
  );
  return { a, b, environment: { config: config('agent_a', 'agent_b'), instances: [...a.environment.instances, ...b.environment.instances] } };
}

const agentBlock = (datasets: object[]) => ({ responses_api_agents: { simple_agent: { entrypoint: 'app.ts', datasets } } });

describe('--prompt-config', () => {
  it("builds each row's input from its fields, as the original (system + user, {{ }} literal, params kept)", async () => {
    const dir = tempDir({
      'prompt.yaml': 'system: "You grade {subject}."\nuser: "Q{id}: {question} {{answer in braces}} tags={tags}"\n',
      'raw.jsonl': jsonl(
        { id: 1, subject: 'math', question: 'What is 2+2?', tags: ['a', "it's"], responses_create_params: { temperature: 0.5 } },
        { id: 2, subject: 'history', question: 'Who?', tags: [], extra: null },
      ),
    });
    const { environment } = await twoAgents(() => ({}));
    const out = join(dir, 'out.jsonl');
    const result = await collectRollouts({ environment, agent: 'agent_a', input: join(dir, 'raw.jsonl'), output: out, promptConfig: join(dir, 'prompt.yaml') });
    assert.equal(result.succeeded, 2);
    const rows = readRows(out.replace('.jsonl', '_materialized_inputs.jsonl'));
    assert.deepEqual(rows[0]!['responses_create_params'], {
      temperature: 0.5,
      input: [
        { role: 'system', content: 'You grade math.' },
        { role: 'user', content: `Q1: What is 2+2? {answer in braces} tags=['a', "it's"]` },
      ],
    });
    assert.deepEqual((rows[1]!['responses_create_params'] as Record<string, unknown>)['input'], [
      { role: 'system', content: 'You grade history.' },
      { role: 'user', content: 'Q2: Who? {answer in braces} tags=[]' },
    ]);
    // the agent received the built input
    assert.deepEqual(readRows(out).find((r) => r['_ng_task_index'] === 1)!['got_input'], (rows[1]!['responses_create_params'] as Record<string, unknown>)['input']);
  });

  it('fails clearly on a missing file, rows that already have an input, and a placeholder the row lacks', async () => {
    const dir = tempDir({
      'prompt.yaml': 'user: "{question}"\n',
      'bad.yaml': 'user: "{nope}"\n',
      'has-input.jsonl': jsonl({ question: 'q', responses_create_params: { input: 'already' } }, { question: 'r' }),
      'raw.jsonl': jsonl({ question: 'q' }),
    });
    const { environment } = await twoAgents(() => ({}));
    const run = (input: string, promptConfig: string) => collectRollouts({ environment, agent: 'agent_a', input: join(dir, input), output: join(dir, 'out.jsonl'), promptConfig });
    await assert.rejects(
      run('raw.jsonl', join(dir, 'missing.yaml')),
      (e: Error & { code: string }) => e.code === 'GYM_ROLLOUT_PROMPT_CONFIG' && /Cannot read the prompt config '.*missing\.yaml'/.test(e.message),
    );
    await assert.rejects(
      run('has-input.jsonl', join(dir, 'prompt.yaml')),
      (e: Error & { code: string }) => e.code === 'GYM_ROLLOUT_PROMPT_CONFIG' && /Rows 0 already have responses_create_params\.input/.test(e.message),
    );
    await assert.rejects(run('raw.jsonl', join(dir, 'bad.yaml')), (e: Error & { code: string }) => /\{nope\} names a field the row does not have; the row has: question/.test(e.message));
  });

  it('formats values as Python str() does', () => {
    const row = { n: 3, f: 2.5, t: true, z: null, m: { k: [1, 'x'] } };
    assert.equal(fillTemplate('{n} {f} {t} {z} {m}', row, 'p'), "3 2.5 True None {'k': [1, 'x']}");
  });
});

describe('datasets and --split', () => {
  const config = (a: string, b: string) => ({
    [a]: agentBlock([
      { name: 'ex_a', type: 'example', jsonl_fpath: 'ex_a.jsonl' },
      { name: 'train_a', type: 'train', jsonl_fpath: 'train_a.jsonl', num_repeats: 2 },
    ]),
    [b]: agentBlock([
      { name: 'ex_b', type: 'example', jsonl_fpath: 'ex_b.jsonl' },
      { name: 'bench_b', type: 'benchmark', jsonl_fpath: 'bench_b.jsonl', prompt_config: 'bench_prompt.yaml' },
    ]),
    not_an_agent: { resources_servers: { x: { entrypoint: 'app.ts', datasets: [{ type: 'example', jsonl_fpath: 'nope.jsonl' }] } } },
  });
  const files = {
    'ex_a.jsonl': jsonl({ responses_create_params: { input: 'a1' } }, { responses_create_params: { input: 'a2' } }),
    'ex_b.jsonl': jsonl({ responses_create_params: { input: 'b1' } }),
    'train_a.jsonl': jsonl({ responses_create_params: { input: 't1' } }, { responses_create_params: { input: 't2' } }),
    'bench_b.jsonl': jsonl({ problem: 'p1' }, { problem: 'p2', responses_create_params: { max_output_tokens: 9 } }),
    'bench_prompt.yaml': 'user: "Solve: {problem}"\n',
  };

  it('without --input uses every example dataset of every agent, each row routed to its agent', async () => {
    const dir = tempDir(files);
    const { a, b, environment } = await twoAgents(config);
    const out = join(dir, 'out.jsonl');
    const infos: string[] = [];
    await collectRollouts({ environment, output: out, resolvePath: (p) => join(dir, p), onInfo: (l) => infos.push(l) });
    const rows = readRows(out);
    assert.deepEqual(rows.map((r) => `${(r['agent_ref'] as { name: string }).name}:${String(r['got_input'])}`).sort(), ['agent_a:a1', 'agent_a:a2', 'agent_b:b1']);
    assert.equal(a.stats.requests, 2);
    assert.equal(b.stats.requests, 1);
    assert.ok(
      infos.some((l) => l === 'input: agent_a/ex_a (example), agent_b/ex_b (example)'),
      infos.join('\n'),
    );
  });

  it('--agent keeps only that agent’s datasets', async () => {
    const dir = tempDir(files);
    const { b, environment } = await twoAgents(config);
    const out = join(dir, 'out.jsonl');
    await collectRollouts({ environment, agent: 'agent_a', output: out, resolvePath: (p) => join(dir, p) });
    assert.equal(readRows(out).length, 2);
    assert.equal(b.stats.requests, 0);
  });

  it('--split train repeats each line the dataset’s num_repeats times, as one task with several rollouts', async () => {
    const dir = tempDir(files);
    const { environment } = await twoAgents(config);
    const out = join(dir, 'out.jsonl');
    await collectRollouts({ environment, split: 'train', output: out, resolvePath: (p) => join(dir, p) });
    assert.deepEqual(keysOf(readRows(out)), ['0:0', '0:1', '1:0', '1:1']);
  });

  it('--split benchmark applies the dataset’s own prompt_config', async () => {
    const dir = tempDir(files);
    const { environment } = await twoAgents(config);
    const out = join(dir, 'out.jsonl');
    await collectRollouts({ environment, split: 'benchmark', output: out, resolvePath: (p) => join(dir, p) });
    const rows = readRows(out.replace('.jsonl', '_materialized_inputs.jsonl'));
    assert.deepEqual(
      rows.map((r) => r['responses_create_params']),
      [{ input: [{ role: 'user', content: 'Solve: p1' }] }, { max_output_tokens: 9, input: [{ role: 'user', content: 'Solve: p2' }] }],
    );
  });

  it('names the datasets there are when none has the type, and refuses --split with --input', async () => {
    const dir = tempDir(files);
    const { environment } = await twoAgents(config);
    const out = join(dir, 'out.jsonl');
    await assert.rejects(
      collectRollouts({ environment, split: 'validation', output: out, resolvePath: (p) => join(dir, p) }),
      (e: Error & { code: string }) =>
        e.code === 'GYM_ROLLOUT_NO_INPUT' && /No agent has a dataset of type "validation"; the datasets are: agent_a: ex_a \(example\), agent_a: train_a \(train\)/.test(e.message),
    );
    await assert.rejects(collectRollouts({ environment, split: 'train', input: join(dir, 'ex_a.jsonl'), output: out }), (e: Error & { code: string }) => e.code === 'GYM_ROLLOUT_BAD_FLAG');
  });

  it('num_repeats in the dict form gives each agent its count, _default the rest, and fails for an unlisted agent', async () => {
    const dir = tempDir(files);
    const { environment } = await twoAgents(config);
    const out = join(dir, 'out.jsonl');
    const warnings: string[] = [];
    await collectRollouts({ environment, output: out, numRepeats: { agent_a: 3, _default: 1, agent_typo: 2 }, resolvePath: (p) => join(dir, p), onWarning: (l) => warnings.push(l) });
    const perAgent = (name: string) => readRows(out).filter((r) => (r['agent_ref'] as { name: string }).name === name).length;
    assert.equal(perAgent('agent_a'), 6);
    assert.equal(perAgent('agent_b'), 1);
    assert.ok(
      warnings.some((w) => /num_repeats names agent\(s\) no input row uses \(a typo\?\): agent_typo/.test(w)),
      warnings.join('\n'),
    );
    await assert.rejects(
      collectRollouts({ environment, output: out, numRepeats: { agent_a: 2 }, resolvePath: (p) => join(dir, p) }),
      (e: Error & { code: string }) => e.code === 'GYM_ROLLOUT_BAD_FLAG' && /no entry for agent\(s\) agent_b and no '_default'/.test(e.message),
    );
  });
});

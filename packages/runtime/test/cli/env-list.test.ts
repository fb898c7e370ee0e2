// `gym env list` as a user runs it: the real CLI process lists every server we ship, with what its
// config says, and finds a server of its own in a --search-dir root (a Python one too).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runGym } from '../support/gym-process.js';

interface Listed {
  kind: string;
  name: string;
  dir: string;
  configs: string[];
  description: string | null;
  domain: string | null;
  datasets: Array<{ agent: string; name: string; type: string; jsonl_fpath: string | null }>;
  problems: string[];
}

describe('gym env list', () => {
  const extra = mkdtempSync(join(tmpdir(), 'gym-env-list-'));
  before(() => {
    const dir = join(extra, 'resources_servers', 'my_grader');
    mkdirSync(join(dir, 'configs'), { recursive: true });
    writeFileSync(join(dir, 'app.py'), 'print("a Python server")\n');
    writeFileSync(
      join(dir, 'configs', 'my_grader.yaml'),
      [
        'my_grader:',
        '  resources_servers:',
        '    my_grader: {entrypoint: app.py, domain: math, description: Grades my answers}',
        'my_grader_agent:',
        '  responses_api_agents:',
        '    simple_agent:',
        '      entrypoint: app.py',
        '      datasets: [{name: train, type: train, jsonl_fpath: data/train.jsonl}]',
        '',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'configs', 'broken.yaml'), 'a: [unclosed\n');
  });
  after(() => rmSync(extra, { recursive: true, force: true }));

  it('lists every resources server, agent and model server we ship, with description and datasets', async () => {
    const { code, stdout, stderr } = await runGym(['env', 'list', '--json']);
    assert.equal(code, 0, stderr);
    const listed = JSON.parse(stdout) as Listed[];
    for (const kind of ['resources_servers', 'responses_api_agents', 'responses_api_models']) {
      const shipped = readdirSync(join(REPO_ROOT, kind), { withFileTypes: true })
        .filter((d) => d.isDirectory() && d.name !== 'test-support')
        .map((d) => d.name)
        .sort();
      assert.deepEqual(
        listed.filter((s) => s.kind === kind).map((s) => s.name),
        shipped,
        kind,
      );
    }
    for (const server of listed) assert.ok(server.description !== null, `${server.name} has a description`);
    for (const server of listed.filter((s) => s.kind === 'resources_servers')) {
      assert.ok(server.domain !== null, server.name);
      assert.ok(server.configs.includes(`configs/${server.name}.yaml`), server.name);
      assert.ok(
        server.datasets.some((d) => d.type === 'example' && d.jsonl_fpath === `resources_servers/${server.name}/data/example.jsonl`),
        `${server.name}: ${JSON.stringify(server.datasets)}`,
      );
    }
    const judge = listed.find((s) => s.name === 'equivalence_llm_judge')!;
    assert.equal(judge.description, 'Short answer questions with LLM-as-a-judge');
  });

  it('finds a server in a --search-dir root, and names a config it cannot read without failing', async () => {
    const { code, stdout, stderr } = await runGym(['env', 'list', '--search-dir', extra]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^ {2}my_grader {2}\[math\] {2}Grades my answers$/m);
    assert.match(stdout, /dataset: train \(train\) of my_grader_agent: data\/train\.jsonl/);
    assert.match(stdout, /unreadable: configs\/broken\.yaml: /);
    assert.match(stdout, /^ {2}mcqa {2}\[knowledge\]/m);
  });

  it('fits 80 columns: a long description or path wraps at a space, indented under its line', async () => {
    const narrow = await runGym(['env', 'list'], { env: { ...process.env, COLUMNS: '80' } });
    assert.equal(narrow.code, 0, narrow.stderr);
    for (const line of narrow.stdout.split('\n')) assert.ok(line.length <= 80, `${line.length} > 80: ${line}`);
    // nothing is cut: the wrapped listing holds every word of the unwrapped one
    const wide = await runGym(['env', 'list'], { env: { ...process.env, COLUMNS: '' } });
    assert.ok(
      wide.stdout.split('\n').some((line) => line.length > 80),
      'some lines are wider than 80 columns unwrapped',
    );
    assert.deepEqual(narrow.stdout.split(/\s+/), wide.stdout.split(/\s+/));
    assert.match(narrow.stdout, /^ {6}dataset: example \(example\) of mcqa_simple_agent:\n {8}resources_servers\/mcqa\/data\/example\.jsonl$/m);
  });
});

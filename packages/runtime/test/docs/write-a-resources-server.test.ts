// docs/write-a-resources-server.md, run as written: every file block is written where it says,
// every shell line is run through bash in the folder the page is in by then (`cd` included), and
// the runs it shows give the rewards and the trace it describes. Only the head server's port is
// chosen here (GYM_HEAD_URL, which every gym command reads), so the test runs beside others.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { freePort, REPO_ROOT } from '../support/gym-process.js';

const PAGE = readFileSync(join(REPO_ROOT, 'docs/write-a-resources-server.md'), 'utf8');

interface Step {
  kind: 'file' | 'shell';
  /** The file's path (file) or the command line (shell). */
  target: string;
  content: string;
}

/** The page's code blocks in order: blocks with `file=<path>` are files, `sh` blocks are command lines. */
function steps(markdown: string): Step[] {
  const out: Step[] = [];
  for (const block of markdown.matchAll(/^```(\w+)(?: file=(\S+))?\n([\s\S]*?)^```$/gm)) {
    const [, lang, file, content] = block as unknown as [string, string, string | undefined, string];
    if (file !== undefined) out.push({ kind: 'file', target: file, content });
    else if (lang === 'sh') for (const line of content.split('\n').filter((l) => l.trim() !== '')) out.push({ kind: 'shell', target: line, content: '' });
  }
  return out;
}

const hasPyYaml = spawnSync('python3', ['-c', 'import yaml'], { stdio: 'ignore' }).status === 0;

describe('docs/write-a-resources-server.md, step by step', () => {
  // inside the checkout, as the page asks (test-artifacts/ is git-ignored)
  mkdirSync(join(REPO_ROOT, 'test-artifacts'), { recursive: true });
  const root = mkdtempSync(join(REPO_ROOT, 'test-artifacts', 'guide-'));
  const ran: { command: string; cwd: string; status: number | null; stdout: string; stderr: string }[] = [];

  before(async () => {
    const env = { ...process.env, GYM_HEAD_URL: `127.0.0.1:${await freePort()}`, FORCE_COLOR: '0' };
    let cwd = root;
    for (const step of steps(PAGE)) {
      if (step.kind === 'file') {
        mkdirSync(dirname(join(cwd, step.target)), { recursive: true });
        writeFileSync(join(cwd, step.target), step.content);
        continue;
      }
      if (!hasPyYaml && step.target.includes('letter_count_py')) continue;
      const cd = /^cd (\S+)$/.exec(step.target);
      if (cd !== null) {
        cwd = join(cwd, cd[1]!);
        continue;
      }
      const res = spawnSync('bash', ['-c', step.target], { cwd, env, encoding: 'utf8', timeout: 240_000 });
      ran.push({ command: step.target, cwd, status: res.status, stdout: res.stdout, stderr: res.stderr });
    }
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const run = (fragment: string) => ran.find((r) => r.command.includes(fragment));
  const rows = (agent: string, cwd: string) => {
    const file = readdirSync(join(cwd, 'results')).find((f) => f.startsWith(`${agent}_`) && /Z\.jsonl$/.test(f));
    assert.ok(file !== undefined, `no results of ${agent}`);
    return readFileSync(join(cwd, 'results', file), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { reward: number; trace_id?: string });
  };

  it('runs every command of the page without an error', () => {
    assert.ok(ran.length >= 4, ran.map((r) => r.command).join('\n'));
    for (const r of ran) assert.equal(r.status, 0, `${r.command}\n${r.stderr}`);
  });

  it('validates, then collects a reward of 1.0 for both tasks of the TypeScript server, each with its trace id', () => {
    assert.match(run('env validate')!.stdout + run('env validate')!.stderr, /letter_count/);
    const collected = rows('letter_count_simple_agent', run('eval run --resources-server letter_count ')!.cwd);
    assert.deepEqual(
      collected.map((r) => r.reward),
      [1, 1],
    );
    assert.ok(collected.every((r) => /^[0-9a-f]{32}$/.test(r.trace_id ?? '')));
  });

  it("shows the rollout's calls into the server in the trace, as the page says", () => {
    const tree = run('trace show')!.stdout;
    for (const name of ['POST /seed_session', 'POST /count_letters', 'POST /verify', 'gym.verify']) assert.ok(tree.includes(name), `${name} in\n${tree}`);
  });

  it('collects the same rewards from the Python server', (t) => {
    if (!hasPyYaml) return t.skip('python3 has no PyYAML here');
    const collected = rows('letter_count_py_simple_agent', run('letter_count_py --model-type')!.cwd);
    assert.deepEqual(
      collected.map((r) => r.reward),
      [1, 1],
    );
  });
});

// The docs and the CLI agree: docs/cli.md is what `--help` prints, every flag the docs name
// exists, and every relative link and anchor in README.md and docs/ leads somewhere.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program.js';
import { REPO_ROOT } from './support/gym-process.js';

const silent = { out: () => undefined, err: () => undefined, isTty: false };

function commands(command: Command, path = 'gym'): [string, Command][] {
  return [[path, command], ...command.commands.filter((c) => c.name() !== 'help').flatMap((c) => commands(c, `${path} ${c.name()}`))];
}

const program = buildProgram(silent) as unknown as Command;
program.configureOutput({ getOutHelpWidth: () => 80, getErrHelpWidth: () => 80 });
for (const [, c] of commands(program)) c.configureOutput({ getOutHelpWidth: () => 80, getErrHelpWidth: () => 80 });

const markdownFiles = [join(REPO_ROOT, 'README.md'), ...readdirSync(join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => join(REPO_ROOT, 'docs', f))];

// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (m === null) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function withoutCode(markdown: string): string {
  return markdown.replace(/```[\s\S]*?```/g, '');
}

describe('docs/cli.md', () => {
  const doc = readFileSync(join(REPO_ROOT, 'docs/cli.md'), 'utf8');
  const sections = new Map([...doc.matchAll(/^## `(gym[^`]*)`\n\n```\n([\s\S]*?)```/gm)].map((m) => [m[1]!, m[2]!]));

  it('has a section for every command, holding exactly what its --help prints', () => {
    const all = commands(program).filter(([, c]) => c.commands.length === 0 || c === program);
    assert.ok(all.length > 10, 'the command walk found the commands');
    for (const [path, command] of all) {
      assert.ok(sections.has(path), `docs/cli.md has no section for ${path}`);
      assert.equal(sections.get(path)!.trimEnd(), command.helpInformation().trimEnd(), `docs/cli.md section of ${path}`);
    }
  });
});

describe('flags named in the docs', () => {
  // flags of other programs the docs mention (node's, vLLM's, huggingface-cli's)
  const FOREIGN = new Set(['--max-old-space-size', '--cpu-prof', '--cpu-prof-dir', '--conditions', '--import', '--api-key', '--local-dir']);
  const known = new Set<string>(['--help', '--version']);
  for (const [, c] of commands(program)) for (const o of c.options) for (const f of [o.long, o.negate ? o.long : undefined]) if (f !== undefined) known.add(f);

  it('exist on some gym command', () => {
    const unknown: string[] = [];
    for (const file of markdownFiles) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*)/g)) {
        if (!known.has(m[1]!) && !FOREIGN.has(m[1]!)) unknown.push(`${relative(REPO_ROOT, file)}: ${m[1]}`);
      }
    }
    assert.deepEqual(unknown, []);
  });
});

describe('links', () => {
  it('every relative link and anchor in README.md and docs/ resolves', () => {
    const broken: string[] = [];
    for (const file of markdownFiles) {
      const text = withoutCode(readFileSync(file, 'utf8'));
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
        const where = `${relative(REPO_ROOT, file)} → ${target}`;
        if (!existsSync(resolved)) {
          broken.push(`${where}: no such file`);
          continue;
        }
        if (anchor !== undefined && anchor !== '' && statSync(resolved).isFile() && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) {
          broken.push(`${where}: no heading with that anchor`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });

  it('the link checker reads anchors as GitHub writes them', () => {
    assert.deepEqual([...anchorsOf('# `gym trace` — where?\n## Errors\n```\n# not a heading\n```\n## Errors\n')], ['gym-trace--where', 'errors', 'errors-1']);
  });

  it('nothing cites documents outside the repository', () => {
    const citing = markdownFiles.filter((f) => /DESIGN(\.md)? §|\.\.\/shared\/|reference §/.test(readFileSync(f, 'utf8'))).map((f) => relative(REPO_ROOT, f));
    assert.deepEqual(citing, []);
  });
});

// The docs and the CLI agree: docs/cli.md is what `--help` prints, every flag the docs name
// exists, and every relative link and anchor in README.md and docs/ leads somewhere.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program.js';
import { REPO_ROOT } from './support/gym-process.js';
import { anchorsOf } from './support/markdown-anchors.js';

function codeFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'results') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) codeFiles(path, out);
    else if (/\.(ts|mts|mjs)$/.test(name)) out.push(path);
  }
  return out;
}

const silent = { out: () => undefined, err: () => undefined, isTty: false };

function commands(command: Command, path = 'gym'): [string, Command][] {
  return [[path, command], ...command.commands.filter((c) => c.name() !== 'help').flatMap((c) => commands(c, `${path} ${c.name()}`))];
}

const program = buildProgram(silent) as unknown as Command;
program.configureOutput({ getOutHelpWidth: () => 80, getErrHelpWidth: () => 80 });
for (const [, c] of commands(program)) c.configureOutput({ getOutHelpWidth: () => 80, getErrHelpWidth: () => 80 });

const markdownFiles = [
  join(REPO_ROOT, 'README.md'),
  ...readdirSync(join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(REPO_ROOT, 'docs', f)),
];

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
  // flags of other programs the docs mention (node's, npm's, vLLM's, huggingface-cli's)
  const FOREIGN = new Set([
    '--max-old-space-size',
    '--cpu-prof',
    '--cpu-prof-dir',
    '--conditions',
    '--import',
    '--api-key',
    '--local-dir',
    '--port',
    '--served-model-name',
    '--tensor-parallel-size',
    '--omit',
    '--all',
    '--parseable',
  ]);
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

  it('nothing cites documents outside the repository: docs, and the comments of every source file', () => {
    // design notes, briefs and section numbers of documents a reader of the repository cannot open
    const outside = /DESIGN(\.md)?\b|[Dd]esign notes|\.\.\/shared\/|\breference §|STYLE\.md|node-ecosystem\.md|nemo-gym-observability|§\s?\d|\b[Tt]he issue\b|\b[Ii]ssues? #?\[?\d+/;
    const sources = ['packages', 'bench', 'scripts', 'resources_servers', 'responses_api_agents', 'responses_api_models'].flatMap((dir) => codeFiles(join(REPO_ROOT, dir)));
    const files = [...markdownFiles, join(REPO_ROOT, 'BENCHMARKS.md'), ...sources.filter((f) => f !== fileURLToPath(import.meta.url))];
    assert.ok(sources.length > 300, `only ${sources.length} source files: the scan is broken`);
    const citing = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (outside.test(line) ? [`${relative(REPO_ROOT, f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    assert.deepEqual(citing, []);
  });

  it('every docs page a source comment names exists', () => {
    const sources = ['packages', 'bench', 'scripts', 'resources_servers', 'responses_api_agents', 'responses_api_models'].flatMap((dir) => codeFiles(join(REPO_ROOT, dir)));
    const named = new Set(sources.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/\bdocs\/[\w/.-]+\.md/g)].map((m) => m[0])));
    assert.ok(named.size > 10, 'the scan is broken');
    assert.deepEqual(
      [...named].filter((page) => !existsSync(join(REPO_ROOT, page))),
      [],
    );
  });
});

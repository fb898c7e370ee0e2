// docs/README.md is the way in: every page under docs/ is reached from it by following links.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { REPO_ROOT } from './support/gym-process.js';

const DOCS = join(REPO_ROOT, 'docs');
const INDEX = join(DOCS, 'README.md');

/** The Markdown pages under docs/ that `page` links to (outside code blocks; anchors dropped). */
function linkedPages(page: string): string[] {
  const text = readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!.split('#')[0]!)
    .filter((target) => target.endsWith('.md') && !/^[a-z]+:/i.test(target))
    .map((target) => resolve(dirname(page), decodeURIComponent(target)))
    .filter((path) => path.startsWith(DOCS + '/') && existsSync(path));
}

describe('docs/README.md', () => {
  it('reaches every page under docs/ through its links', () => {
    const reached = new Set([INDEX]);
    const queue = [INDEX];
    for (let page = queue.shift(); page !== undefined; page = queue.shift()) {
      for (const next of linkedPages(page)) if (!reached.has(next)) queue.push((reached.add(next), next));
    }
    const pages = readdirSync(DOCS, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => join(DOCS, f));
    assert.ok(pages.length > 20, 'the scan found the pages');
    assert.deepEqual(
      pages.filter((p) => !reached.has(p)).map((p) => relative(REPO_ROOT, p)),
      [],
    );
  });

  it('sends a user, a server author and a contributor each their way', () => {
    const headings = [...readFileSync(INDEX, 'utf8').matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual(headings, ['I run environments and collect rollouts', 'I write a server', 'I work on gym itself']);
  });
});

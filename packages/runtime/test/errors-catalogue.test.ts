// Every error and warning code in the sources is documented under docs/.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './support/gym-process.js';

const SOURCE_DIRS = ['packages/lens/src', 'packages/runtime/src', 'packages/trace/src', 'resources_servers', 'responses_api_agents', 'responses_api_models'];
const CODE = /'((?:GYM|LENS)_[A-Z0-9_]+)'/g;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'test' || name === 'node_modules') continue;
    if (statSync(path).isDirectory()) sources(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

describe('error catalogue', () => {
  it('documents every code the sources raise', () => {
    const docs = readdirSync(join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.md')).map((f) => readFileSync(join(REPO_ROOT, 'docs', f), 'utf8')).join('\n');
    const codes = new Set<string>();
    for (const dir of SOURCE_DIRS) for (const file of sources(join(REPO_ROOT, dir))) for (const m of readFileSync(file, 'utf8').matchAll(CODE)) codes.add(m[1]!);
    assert.ok(codes.size > 50, `found only ${codes.size} codes: the scan is broken`);
    const missing = [...codes].filter((code) => !docs.includes(`\`${code}\``)).sort();
    assert.deepEqual(missing, []);
  });
});

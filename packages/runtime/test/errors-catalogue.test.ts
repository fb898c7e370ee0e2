// Every error and warning code in the sources is documented under docs/; every row of the error
// tables (runtime, trace, lens) names a docs section that exists and explains that code; every
// code the error pages document exists; and the runtime raises each code as the kind its row says.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LENS_ERROR_TABLE } from '@gym/lens/setup';
import { TRACE_ERRORS } from '@gym/trace';
import { GYM_ERRORS } from '../../server/src/error-codes.js';
import { REPO_ROOT } from './support/gym-process.js';
import { anchorsOf } from './support/markdown-anchors.js';

const PACKAGE_DIRS = ['packages/lens/src', 'packages/server/src', 'packages/runtime/src', 'packages/trace/src'];
const ENVIRONMENT_DIRS = ['resources_servers', 'responses_api_agents', 'responses_api_models'];
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

const read = (dirs: string[]): string =>
  dirs
    .flatMap((dir) => sources(join(REPO_ROOT, dir)))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
const literals = (text: string): Set<string> => new Set([...text.matchAll(CODE)].map((m) => m[1]!));
const page = (name: string): string => readFileSync(join(REPO_ROOT, 'docs', name), 'utf8');

/** Every row of the three tables: code → `<page>.md#<section>`. */
const TABLE_ROWS: Array<[string, string]> = [
  ...Object.entries(GYM_ERRORS).map(([code, spec]): [string, string] => [code, spec.docs]),
  ...Object.entries(TRACE_ERRORS).map(([code, spec]): [string, string] => [code, spec.docs]),
  ...Object.entries(LENS_ERROR_TABLE).map(([code, spec]): [string, string] => [code, spec.docs]),
];

describe('error catalogue', () => {
  it('documents every code the sources raise', () => {
    const docs = readdirSync(join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.md'))
      .map((f) => page(f))
      .join('\n');
    const codes = literals(read([...PACKAGE_DIRS, ...ENVIRONMENT_DIRS]));
    assert.ok(codes.size > 50, `found only ${codes.size} codes: the scan is broken`);
    const missing = [...codes].filter((code) => !docs.includes(`\`${code}\``)).sort();
    assert.deepEqual(missing, []);
  });

  it('explains every row of the error tables in the docs section the row names', () => {
    assert.ok(TABLE_ROWS.length > 50, 'the tables are not read');
    const wrong = TABLE_ROWS.filter(([code, docs]) => {
      const [file, anchor] = docs.split('#') as [string, string | undefined];
      if (!existsSync(join(REPO_ROOT, 'docs', file))) return true;
      const text = page(file);
      return anchor === undefined || !anchorsOf(text).has(anchor) || !text.includes(`\`${code}\``);
    });
    assert.deepEqual(
      wrong.map(([code, docs]) => `${code} → ${docs}`),
      [],
    );
  });

  it('documents no code that does not exist: each is a table row, a warning or failure-row code, or raised by a server implementation', () => {
    const errorPages = ['errors.md', 'errors-config.md', 'errors-http.md', 'errors-rollouts.md', 'trace.md'];
    const documented = new Set(errorPages.flatMap((p) => [...page(p).matchAll(/^\| `((?:GYM|LENS)_[A-Z0-9_]+)` \|/gm)].map((m) => m[1]!)));
    assert.ok(documented.size > 50, `found only ${documented.size} documented codes: the scan is broken`);
    const rows = new Set(TABLE_ROWS.map(([code]) => code));
    // codes outside the runtime's error table: lens and trace, server implementations, and the runtime's warnings and failure-row codes
    const elsewhere = literals(read(['packages/lens/src', 'packages/trace/src', ...ENVIRONMENT_DIRS]) + readFileSync(join(REPO_ROOT, 'packages/runtime/src/rollouts/errors.ts'), 'utf8'));
    const runtimeWarnings = new Set([...read(['packages/server/src', 'packages/runtime/src']).matchAll(/\b(GYM_[A-Z0-9_]*W\d{3})\b/g)].map((m) => m[1]!));
    const unknown = [...documented].filter((code) => !rows.has(code) && !elsewhere.has(code) && !runtimeWarnings.has(code));
    assert.deepEqual(unknown.sort(), []);
  });

  it('the runtime raises every code of its own from its table, as the kind its row says', () => {
    const runtime = read(['packages/server/src', 'packages/runtime/src']);
    const raised = [...runtime.matchAll(/new (GymUserError|GymUpstreamError|GymInternalError|GymError)\(\s*'(GYM_[A-Z0-9_]+)'/g)].map((m) => ({ cls: m[1]!, code: m[2]! }));
    assert.ok(raised.length > 15, 'the scan is broken');
    const kindOf: Record<string, string> = { GymUserError: 'user', GymUpstreamError: 'upstream', GymError: 'caller', GymInternalError: 'internal' };
    const wrong = raised.filter(({ cls, code }) => (GYM_ERRORS as Record<string, { kind: string }>)[code]?.kind !== kindOf[cls]);
    assert.deepEqual(
      wrong.map(({ cls, code }) => `${code} raised as ${cls}`),
      [],
    );
  });
});

describe('classes built from the table', () => {
  it('take their base class, message and docs section from their row', async () => {
    const { GymError, GymUpstreamError, GymUserError } = await import('../../server/src/errors.js');
    const { ConfigYamlError } = await import('../../server/src/config/errors.js');
    const { GymHttpAbortedError, GymHttpTimeoutError } = await import('../../server/src/http/errors.js');
    const yaml = new ConfigYamlError('bad file', { cause: new Error('inner') });
    assert.ok(yaml instanceof GymUserError);
    assert.equal(yaml.name, 'ConfigYamlError');
    assert.equal(yaml.code, 'GYM_CONFIG_BAD_YAML');
    assert.equal(yaml.spec?.docs, GYM_ERRORS.GYM_CONFIG_BAD_YAML.docs);
    assert.equal((yaml.cause as Error).message, 'inner');
    const timeout = new GymHttpTimeoutError('POST', 'http://127.0.0.1:1/run', 250);
    assert.ok(timeout instanceof GymUpstreamError);
    assert.equal(timeout.message, "POST http://127.0.0.1:1/run did not finish within 250 ms. Raise timeoutMs or check the upstream's load.");
    assert.equal(timeout.timeoutMs, 250);
    const aborted = new GymHttpAbortedError('GET', 'http://127.0.0.1:1/');
    assert.ok(aborted instanceof GymError && !(aborted instanceof GymUserError) && !(aborted instanceof GymUpstreamError));
    // a server implementation's own code has no row
    assert.equal(new GymUserError('GYM_MODEL_CHAT_TEMPLATE', 'x').spec, undefined);
  });
});

// The arrows of docs/architecture/packages.md, checked over the sources: which package may import
// which, how the server package and the runtime reach their optional packages, which folders of
// each may import which, and that every package a source imports is declared in its package.json.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { builtinModules } from 'node:module';
import ts from 'typescript';
import { REPO_ROOT } from '../support/gym-process.js';

interface Import {
  /** Repository-relative path of the importing file. */
  file: string;
  specifier: string;
  /** `import type` / `export type` (erased: costs nothing at run time). */
  typeOnly: boolean;
  /** `import('…')` (loaded only when that code runs). */
  dynamic: boolean;
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name === 'results') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|mts|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function importsOf(path: string): Import[] {
  const file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const rel = relative(REPO_ROOT, path);
  const out: Import[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly = ts.isImportDeclaration(node)
        ? node.importClause?.isTypeOnly === true ||
          (node.importClause?.name === undefined &&
            node.importClause?.namedBindings !== undefined &&
            ts.isNamedImports(node.importClause.namedBindings) &&
            node.importClause.namedBindings.elements.length > 0 &&
            node.importClause.namedBindings.elements.every((e) => e.isTypeOnly))
        : node.isTypeOnly;
      out.push({ file: rel, specifier: node.moduleSpecifier.text, typeOnly, dynamic: false });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0])) {
      out.push({ file: rel, specifier: node.arguments[0].text, typeOnly: false, dynamic: true });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ file: rel, specifier: node.argument.literal.text, typeOnly: true, dynamic: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/** `@scope/name` or `name` of a bare specifier. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

const isBare = (s: string): boolean => !s.startsWith('.') && !s.startsWith('/') && !s.startsWith('node:') && !builtinModules.includes(s);

interface Workspace {
  dir: string;
  name: string;
  declared: Set<string>;
  exports: Set<string>;
  /** Subpath patterns of `exports` (`@gym/server/internal/*.js`) as prefix and suffix of a specifier. */
  patterns: { prefix: string; suffix: string }[];
  imports: Import[];
}

function workspace(dir: string, roots: string[]): Workspace {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as {
    name: string;
    exports?: Record<string, unknown>;
    dependencies?: object;
    peerDependencies?: object;
    optionalDependencies?: object;
  };
  const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]);
  const specifiers = Object.keys(pkg.exports ?? {}).map((sub) => (sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`));
  const exports = new Set(specifiers.filter((s) => !s.includes('*')));
  const patterns = specifiers.filter((s) => s.includes('*')).map((s) => ({ prefix: s.split('*')[0]!, suffix: s.split('*')[1]! }));
  const imports = roots.flatMap((root) => sourceFiles(join(REPO_ROOT, dir, root))).flatMap(importsOf);
  return { dir, name: pkg.name, declared, exports, patterns, imports };
}

/** True when `specifier` is one of the entry points of `w`, or matches one of its patterns with a file behind it. */
function isExported(w: Workspace, specifier: string): boolean {
  if (w.exports.has(specifier)) return true;
  return w.patterns.some(
    ({ prefix, suffix }) =>
      specifier.startsWith(prefix) && specifier.endsWith(suffix) && existsSync(join(REPO_ROOT, w.dir, 'src', `${specifier.slice(prefix.length, specifier.length - suffix.length)}.ts`)),
  );
}

const names = workspace('packages/names', ['src']);
const lens = workspace('packages/lens', ['src']);
const trace = workspace('packages/trace', ['src']);
const server = workspace('packages/server', ['src']);
const runtime = workspace('packages/runtime', ['src', 'bin']);
const bench = workspace('bench', ['.']);
const ALL = [names, lens, trace, server, runtime, bench];
/** Every TypeScript file outside the packages that imports them: gym's own servers, tests, benchmarks. */
const consumers = ['resources_servers', 'responses_api_agents', 'responses_api_models', 'bench', 'test', ...['lens', 'trace', 'server', 'runtime'].map((p) => `packages/${p}/test`)].flatMap((dir) =>
  sourceFiles(join(REPO_ROOT, dir)).flatMap(importsOf),
);
const byName = new Map(ALL.map((w) => [w.name, w]));

const gymImports = (w: Workspace): Import[] => w.imports.filter((i) => i.specifier.startsWith('@gym/'));
const show = (list: Import[]): string[] => list.map((i) => `${i.file} → ${i.specifier}`);

describe('package arrows', () => {
  it('@gym/names imports no package at all', () => {
    assert.deepEqual(show(names.imports.filter((i) => isBare(i.specifier) || i.specifier.startsWith('node:'))), []);
  });

  it('@gym/lens imports only @gym/names of the gym packages', () => {
    assert.deepEqual(show(gymImports(lens).filter((i) => packageOf(i.specifier) !== '@gym/names')), []);
  });

  it('@gym/trace imports only @gym/names of the gym packages (never lens, never runtime)', () => {
    assert.deepEqual(show(gymImports(trace).filter((i) => packageOf(i.specifier) !== '@gym/names')), []);
  });

  it('@gym/server imports only @gym/names of the gym packages, and lens as an optional peer: never trace, never runtime', () => {
    assert.deepEqual(show(gymImports(server).filter((i) => !['@gym/names', '@gym/lens'].includes(packageOf(i.specifier)))), []);
  });

  for (const w of [server, runtime]) {
    it(`${w.name} reaches lens and OpenTelemetry only through types and import(), so it runs without them`, () => {
      const optional = w.imports.filter((i) => ['@gym/lens', '@opentelemetry/api'].includes(packageOf(i.specifier)));
      assert.ok(optional.length > 0, 'the scan found no lens import: it is broken');
      assert.deepEqual(show(optional.filter((i) => !i.typeOnly && !i.dynamic)), []);
    });
  }

  it("@gym/server/internal/… is gym's own: only @gym/runtime and tests import it, never a server or a benchmark", () => {
    const internal = (i: Import): boolean => i.specifier.startsWith('@gym/server/internal/');
    assert.ok(runtime.imports.some(internal), 'the scan found no internal import: it is broken');
    const outside = [...ALL.filter((w) => w !== runtime).flatMap((w) => w.imports), ...consumers.filter((i) => !/^packages\/[a-z]+\/test\//.test(i.file))];
    assert.deepEqual(show(outside.filter(internal)), []);
  });

  it('@gym/runtime imports @gym/trace only in cli/: the command table statically, the library through import()', () => {
    const traceImports = runtime.imports.filter((i) => packageOf(i.specifier) === '@gym/trace');
    assert.deepEqual(show(traceImports.filter((i) => !i.file.startsWith('packages/runtime/src/cli/'))), []);
    assert.deepEqual(show(traceImports.filter((i) => i.specifier === '@gym/trace' && !i.dynamic && !i.typeOnly)), []);
  });

  it('imports other packages through their exported entry points only', () => {
    const bad = [...ALL.flatMap(gymImports), ...consumers.filter((i) => i.specifier.startsWith('@gym/'))].filter((i) => {
      const target = byName.get(packageOf(i.specifier));
      return target === undefined || !isExported(target, i.specifier);
    });
    assert.deepEqual(show(bad), []);
  });

  it('bench/ uses the packages as a user does: no relative path into packages/', () => {
    assert.deepEqual(show(bench.imports.filter((i) => i.specifier.startsWith('.') && resolve(REPO_ROOT, dirname(i.file), i.specifier).startsWith(join(REPO_ROOT, 'packages')))), []);
  });

  it('declares every package a source imports in its package.json', () => {
    const undeclared = ALL.flatMap((w) => w.imports.filter((i) => isBare(i.specifier) && packageOf(i.specifier) !== w.name && !w.declared.has(packageOf(i.specifier))));
    assert.deepEqual(show(undeclared), []);
  });
});

/** The folder of a repository-relative path under `packages/<pkg>/src` (`(root)` for errors.ts, index.ts). */
function folderOf(pkg: string, path: string): string {
  const inSrc = relative(join(REPO_ROOT, 'packages', pkg, 'src'), join(REPO_ROOT, path));
  return inSrc.includes('/') ? inSrc.split('/')[0]! : '(root)';
}

const INTERNAL = '@gym/server/internal/';

/**
 * Arrows between folders: from folder → to folder, for every relative import between two folders
 * of one package, and for the runtime's imports of the server package's folders (`@gym/server/internal/<folder>/…`).
 */
const folderArrows = [
  ...server.imports
    .filter((i) => i.file.startsWith('packages/server/src/') && i.specifier.startsWith('.'))
    .map((i) => ({ ...i, pkg: 'server', from: folderOf('server', i.file), to: folderOf('server', relative(REPO_ROOT, resolve(REPO_ROOT, dirname(i.file), i.specifier))) })),
  ...runtime.imports
    .filter((i) => i.file.startsWith('packages/runtime/src/') && (i.specifier.startsWith('.') || i.specifier.startsWith(INTERNAL)))
    .map((i) => ({
      ...i,
      pkg: 'runtime',
      from: folderOf('runtime', i.file),
      to: i.specifier.startsWith(INTERNAL)
        ? `@gym/server ${folderOf('server', join('packages/server/src', i.specifier.slice(INTERNAL.length)))}`
        : folderOf('runtime', relative(REPO_ROOT, resolve(REPO_ROOT, dirname(i.file), i.specifier))),
    })),
].filter((a) => a.from !== a.to);

/** The arrows from a folder of `@gym/server` that `allowed` refuses. */
function arrowsFrom(from: string, allowed: (to: string) => boolean): string[] {
  return folderArrows.filter((a) => a.pkg === 'server' && a.from === from && !allowed(a.to)).map((a) => `${a.file} → ${a.specifier}`);
}

describe('the folders of @gym/server and @gym/runtime', () => {
  it('the scan sees the folders', () => {
    assert.ok(new Set(folderArrows.filter((a) => a.pkg === 'server').map((a) => a.from)).size >= 7);
    assert.ok(new Set(folderArrows.filter((a) => a.pkg === 'runtime').map((a) => a.from)).size >= 4);
  });

  it('config/ and http/ are leaves: they import only the error base (errors.ts)', () => {
    assert.deepEqual(
      arrowsFrom('config', (to) => to === '(root)'),
      [],
    );
    assert.deepEqual(
      arrowsFrom('http', (to) => to === '(root)'),
      [],
    );
  });

  it('server/ never imports telemetry/, orchestrator/, rollouts/ or cli/: instrumentation reaches it through seams', () => {
    assert.deepEqual(
      arrowsFrom('server', (to) => !['telemetry', 'orchestrator', 'rollouts', 'cli'].includes(to)),
      [],
    );
  });

  it('reward-stats/ imports only protocol/: pure statistics over rows', () => {
    assert.deepEqual(
      arrowsFrom('reward-stats', (to) => to === 'protocol'),
      [],
    );
  });

  it('upstream/ imports only http/, config/ and errors.ts: a model endpoint client beside, not inside, the schemas', () => {
    assert.deepEqual(
      arrowsFrom('upstream', (to) => ['http', 'config', '(root)'].includes(to)),
      [],
    );
  });

  it('telemetry/ imports only config/, http/, server/ (their seams and types), protocol/ (the rollout id) and errors.ts', () => {
    assert.deepEqual(
      arrowsFrom('telemetry', (to) => ['config', 'http', 'server', 'protocol', '(root)'].includes(to)),
      [],
    );
  });

  it('python-re/ is self-contained: no import outside its folder, no package (a server-authoring module of its own, the `@gym/server/python-re` entry point)', () => {
    assert.deepEqual(
      arrowsFrom('python-re', () => false),
      [],
    );
    assert.deepEqual(
      server.imports.filter((i) => i.file.startsWith('packages/server/src/python-re/') && !i.specifier.startsWith('./')).map((i) => `${i.file} → ${i.specifier}`),
      [],
    );
  });

  it('nothing imports cli/ (only bin/gym.mjs runs it) and nothing but testing/ imports testing/', () => {
    assert.deepEqual(
      folderArrows.filter((a) => ['cli', 'testing', '@gym/server testing'].includes(a.to)).map((a) => `${a.file} → ${a.specifier}`),
      [],
    );
  });

  it('the server side never reaches back: no folder of @gym/server imports one of the runtime (its package arrow, here per file)', () => {
    assert.deepEqual(
      server.imports
        .filter((i) => i.specifier.startsWith('.') && !resolve(REPO_ROOT, dirname(i.file), i.specifier).startsWith(join(REPO_ROOT, 'packages/server/src')))
        .map((i) => `${i.file} → ${i.specifier}`),
      [],
    );
  });
});

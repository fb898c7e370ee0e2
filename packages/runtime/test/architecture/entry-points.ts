// The public entry points of the workspace packages, and what each exports (values and types).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { REPO_ROOT } from '../support/gym-process.js';

export const PACKAGES = ['names', 'lens', 'trace', 'server', 'runtime'] as const;

export interface EntryPoint {
  /** `@gym/lens/setup`, … */
  specifier: string;
  /** Absolute path of its TypeScript source (the `source` condition). */
  source: string;
}

/** Every entry point of every package, from the `exports` of its package.json. */
export function entryPoints(): EntryPoint[] {
  const out: EntryPoint[] = [];
  for (const dir of PACKAGES) {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'packages', dir, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string | { source?: string }> };
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      // a subpath pattern (`@gym/server/internal/*`) is no pinned surface: import-graph.test.ts says who may use it
      if (typeof target === 'string' || target.source === undefined || subpath.includes('*')) continue;
      out.push({ specifier: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`, source: join(REPO_ROOT, 'packages', dir, target.source) });
    }
  }
  return out;
}

/** The names an entry point exports at run time (its values). */
export async function valueExports(entry: EntryPoint): Promise<string[]> {
  return Object.keys((await import(pathToFileURL(entry.source).href)) as object).sort();
}

/** The names an entry point declares as types only (`export type {…}`, exported interfaces and aliases). */
export function typeExports(entry: EntryPoint): string[] {
  const file = ts.createSourceFile(entry.source, readFileSync(entry.source, 'utf8'), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause !== undefined && ts.isNamedExports(statement.exportClause)) {
      for (const el of statement.exportClause.elements) if (statement.isTypeOnly || el.isTypeOnly) names.push(el.name.text);
    } else if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      names.push(statement.name.text);
    }
  }
  return names.sort();
}

/** True when an entry point re-exports a whole module (`export * from`), which no pin could follow. */
export function hasStarExport(entry: EntryPoint): boolean {
  const file = ts.createSourceFile(entry.source, readFileSync(entry.source, 'utf8'), ts.ScriptTarget.Latest);
  return file.statements.some((s) => ts.isExportDeclaration(s) && s.exportClause === undefined);
}

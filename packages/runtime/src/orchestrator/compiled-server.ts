/**
 * Which file runs a server. The TypeScript servers under a search root (`resources_servers/`,
 * `responses_api_agents/`, `responses_api_models/`) may be compiled into that root's `dist/` under
 * the same folders, with `dist/servers.tsbuildinfo` as the build's record: gym's own servers are,
 * by `npm run build` (tsconfig.servers.json). A server runs from there while that build is current
 * (`build-freshness.ts`); otherwise, and for a user's server that was never compiled, its
 * TypeScript runs through tsx. A JavaScript or Python entrypoint runs as it is.
 * @module
 */
import { existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isBuildCurrent } from './build-freshness.js';
import { FROM_SOURCE, isTypeScript } from './node-flags.js';

const SERVER_FOLDERS = ['resources_servers', 'responses_api_agents', 'responses_api_models'];
const BUILD_RECORD = join('dist', 'servers.tsbuildinfo');

/** The file that runs the server whose entrypoint is `entrypoint` in `<root>/<server_type>/<implementation>` (`dir`). */
export function runnableEntrypoint(dir: string, entrypoint: string): string {
  // from the sources, every process loads our packages as written: a compiled server would not
  return FROM_SOURCE ? entrypoint : (compiledEntrypoint(dir, entrypoint) ?? entrypoint);
}

/** The compiled copy of a TypeScript entrypoint, when there is one and its build is current. */
export function compiledEntrypoint(dir: string, entrypoint: string): string | undefined {
  if (!isTypeScript(entrypoint)) return undefined;
  const root = resolve(dir, '..', '..');
  const inRoot = relative(root, entrypoint);
  if (inRoot.startsWith('..')) return undefined;
  const compiled = join(root, 'dist', inRoot).replace(/\.([cm]?)tsx?$/, '.$1js');
  if (!existsSync(compiled)) return undefined;
  const sources = SERVER_FOLDERS.map((folder) => join(root, folder));
  return isBuildCurrent(join(root, BUILD_RECORD), sources) ? compiled : undefined;
}

let tsxRegistered = false;

/** Imports a server's entrypoint into this process (to read what it declares), registering tsx first when it is TypeScript. */
export async function importServerModule(dir: string, entrypoint: string): Promise<unknown> {
  const file = runnableEntrypoint(dir, entrypoint);
  if (isTypeScript(file) && !FROM_SOURCE && !tsxRegistered) {
    // tsx's loader, as `--import tsx` would have registered it at start (its ESM and CommonJS hooks)
    await import(import.meta.resolve('tsx'));
    tsxRegistered = true;
  }
  return import(pathToFileURL(file).href);
}

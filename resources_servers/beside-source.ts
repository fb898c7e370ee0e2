/**
 * `besideSource()`: a file that ships beside a server's TypeScript source (a data file, a Python
 * runner), found from the module's `import.meta.url` whether the module runs as written or compiled
 * into the workspace's `dist/` (`dist/resources_servers/<server>/…`), where tsc copies no such file.
 * @module
 */

/** This folder as written, and the folder the running copy of this module is in. */
const SOURCE_FOLDER = import.meta.url.endsWith('.ts') ? new URL('./', import.meta.url) : new URL('../../resources_servers/', import.meta.url);
const RUNNING_FOLDER = new URL('./', import.meta.url);

/** The URL of `file`, relative to the source of the module at `moduleUrl` (a module of this folder). */
export function besideSource(moduleUrl: string, file: string): URL {
  return new URL(file, new URL(moduleUrl.slice(RUNNING_FOLDER.href.length), SOURCE_FOLDER));
}

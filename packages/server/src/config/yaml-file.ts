/**
 * Reading one YAML config file into a plain map.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { ConfigFileNotFoundError, ConfigYamlError } from './errors.js';
import { isMap } from './tree.js';
import type { ConfigMap } from './types.js';

/**
 * Parses YAML text whose top level must be a map (an empty document is `{}`). YAML 1.2 core
 * schema: `yes`/`no`/`on`/`off` stay strings (see docs/config.md). Duplicate keys are errors.
 * @throws {ConfigYamlError} on a syntax error (with line and column) or a non-map top level.
 */
export function parseConfigYaml(text: string, label: string): ConfigMap {
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  const first = doc.errors[0];
  if (first !== undefined) {
    const at = first.linePos?.[0];
    const where = at === undefined ? '' : ` at line ${at.line}, column ${at.col}`;
    throw new ConfigYamlError(`Malformed YAML in ${label}${where}: ${first.message.split('\n')[0]}`);
  }
  const value: unknown = doc.toJS({ maxAliasCount: 1000 });
  if (value === null || value === undefined) return {};
  if (!isMap(value)) {
    throw new ConfigYamlError(`${label} must contain a YAML map at the top level, got ${describeKind(value)}.`);
  }
  return value;
}

/**
 * Reads and parses a config file.
 * @throws {ConfigFileNotFoundError} when the file does not exist; {@link ConfigYamlError} as above.
 */
export async function readConfigFile(path: string): Promise<ConfigMap> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ConfigFileNotFoundError(`Config file ${path} does not exist.`, { cause: err });
    }
    throw err;
  }
  return parseConfigYaml(text, path);
}

/** `a list`, `a string`, …: for error messages. */
export function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (isMap(value)) return 'a map';
  return `a ${typeof value} (${JSON.stringify(value)})`;
}

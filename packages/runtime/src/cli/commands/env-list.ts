/**
 * `gym env list`: the environments found in the search roots — every resources server, agent and
 * model server directory, with what its config files say: description (the `description` key, else
 * the file's opening comment), domain, and the datasets of the agents that drive it. Reads files
 * only; starts nothing.
 * @module
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { searchRoots } from '@gym/server/internal/config/search-roots.js';
import { INSTALL_ROOT } from '../config-options.js';
import type { CliIo } from '../io.js';

/** Flags of `gym env list`. */
export interface EnvListFlags {
  searchDir?: string[];
  json?: boolean;
}

/** The server kinds, in listing order, with their headings. */
const KINDS = [
  ['resources_servers', 'resources servers (environments)'],
  ['responses_api_agents', 'agents'],
  ['responses_api_models', 'model servers'],
] as const;

/** One dataset an agent instance names. */
export interface ListedDataset {
  agent: string;
  name: string;
  type: string;
  jsonl_fpath: string | null;
}

/** One server directory. */
export interface ListedServer {
  kind: (typeof KINDS)[number][0];
  name: string;
  /** The directory, relative to the working directory when inside it. */
  dir: string;
  /** Its config files (`configs/*.yaml`), relative to the directory. */
  configs: string[];
  description: string | null;
  domain: string | null;
  datasets: ListedDataset[];
  /** Unreadable config files, with why: listed, not fatal. */
  problems: string[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** The comment lines a YAML file opens with, joined (`#` and the space after it dropped). */
function openingComment(source: string): string | null {
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    if (!line.startsWith('#')) break;
    lines.push(line.replace(/^#\s?/, ''));
  }
  return text(lines.join(' '));
}

/** The first sentence of the module comment of `app.ts` (for a server without a config of its own, like an agent). */
function moduleSummary(dir: string): string | null {
  const app = join(dir, 'app.ts');
  if (!existsSync(app)) return null;
  const doc = /^\/\*\*([\s\S]*?)\*\//.exec(readFileSync(app, 'utf8'));
  if (doc === null) return null;
  const prose = doc[1]!
    .split('\n')
    .map((l) => l.replace(/^\s*\*\s?/, ''))
    .filter((l) => !l.startsWith('@'))
    .join(' ');
  return text(/^(.*?\.)(\s|$)/.exec(prose.trim())?.[1] ?? prose);
}

/** Reads one server directory's configs. */
function listServer(kind: ListedServer['kind'], name: string, dir: string, cwd: string): ListedServer {
  const server: ListedServer = { kind, name, dir: relative(cwd, dir).startsWith('..') ? dir : relative(cwd, dir) || '.', configs: [], description: null, domain: null, datasets: [], problems: [] };
  const configDir = join(dir, 'configs');
  const files = existsSync(configDir)
    ? readdirSync(configDir)
        .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
        .sort()
    : [];
  for (const file of files) {
    server.configs.push(`configs/${file}`);
    let source: string;
    let tree: unknown;
    try {
      source = readFileSync(join(configDir, file), 'utf8');
      tree = parseYaml(source);
    } catch (error) {
      server.problems.push(`configs/${file}: ${(error as Error).message.split('\n')[0]}`);
      continue;
    }
    // the file named after the server speaks for it first
    const primary = file.replace(/\.ya?ml$/, '') === name;
    for (const [instance, block] of Object.entries(isObject(tree) ? tree : {})) {
      for (const [type, impls] of Object.entries(isObject(block) ? block : {})) {
        for (const fields of Object.values(isObject(impls) ? impls : {})) {
          if (!isObject(fields)) continue;
          if (type === kind && (primary || server.description === null)) {
            server.description = text(fields['description']) ?? server.description;
            server.domain = text(fields['domain']) ?? server.domain;
          }
          if (type !== 'responses_api_agents' || !Array.isArray(fields['datasets'])) continue;
          for (const d of fields['datasets'] as unknown[]) {
            if (isObject(d)) server.datasets.push({ agent: instance, name: String(d['name'] ?? ''), type: String(d['type'] ?? ''), jsonl_fpath: text(d['jsonl_fpath']) });
          }
        }
      }
    }
    if (server.description === null || primary) server.description = server.description ?? openingComment(source);
  }
  server.description ??= moduleSummary(dir);
  return server;
}

/** Every server directory in `roots`; a name found in several roots is listed from the first. */
export function listServers(roots: readonly string[], cwd: string): ListedServer[] {
  const out: ListedServer[] = [];
  for (const [kind] of KINDS) {
    const seen = new Set<string>();
    for (const root of roots) {
      const parent = join(root, kind);
      if (!existsSync(parent)) continue;
      for (const name of readdirSync(parent).sort()) {
        const dir = join(parent, name);
        if (seen.has(name) || !statSync(dir).isDirectory() || (!existsSync(join(dir, 'app.ts')) && !existsSync(join(dir, 'app.py')) && !existsSync(join(dir, 'configs')))) continue;
        seen.add(name);
        out.push(listServer(kind, name, dir, cwd));
      }
    }
  }
  return out;
}

/** Runs `gym env list`. */
export function envList(flags: EnvListFlags, io: CliIo, cwd: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): void {
  const servers = listServers(searchRoots(cwd, [...(flags.searchDir ?? []), INSTALL_ROOT], env), cwd);
  if (flags.json) {
    io.out(JSON.stringify(servers, null, 2));
    return;
  }
  for (const [kind, heading] of KINDS) {
    const ofKind = servers.filter((s) => s.kind === kind);
    io.out(`${heading} (${ofKind.length}):`);
    for (const s of ofKind) {
      io.out(`  ${s.name}${s.domain === null ? '' : `  [${s.domain}]`}${s.description === null ? '' : `  ${s.description}`}`);
      if (s.configs.length > 0) io.out(`      configs: ${s.configs.join(', ')}  (${s.dir})`);
      for (const d of s.datasets) io.out(`      dataset: ${d.name} (${d.type}) of ${d.agent}${d.jsonl_fpath === null ? '' : `: ${d.jsonl_fpath}`}`);
      for (const p of s.problems) io.out(`      unreadable: ${p}`);
    }
  }
  io.out(`Start one with: gym eval run --resources-server <name> --model-type <model server>`);
}

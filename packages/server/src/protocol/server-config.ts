/**
 * The settings a server implementation declares for its own block, and the check `gym env
 * validate` runs over them: every declared field against its schema, and every key that is
 * neither declared nor one every server block may carry reported by its key path, with the close
 * declared names (a typo in `max_stpes` would otherwise be ignored, as the original ignores it).
 *
 * A server declares its settings by exporting `configSchema`, a zod object schema, from its
 * entrypoint module beside the default factory.
 * @module
 */
import type { z } from 'zod';
import { closeMatches } from '../config/suggest.js';
import type { ServerInstanceConfig } from '../config/types.js';

/** What an entrypoint module exports as `configSchema`: a zod object schema of its own fields. */
export type ServerConfigSchema = z.ZodObject;

/**
 * Fields any server block may carry besides its implementation's: gym's (`entrypoint`, `host`,
 * `port`, `num_workers`, `allowed_hosts`), the original's common ones (`domain`, `datasets`,
 * `name`, `expose_tools_over_mcp`, an agent's `token_id_capture`), the catalogue metadata its configs carry (`description`,
 * `verified`, `verified_url`, `value`, `license`), and the globals copied into agents.
 */
export const COMMON_SERVER_FIELDS: ReadonlySet<string> = new Set([
  'entrypoint',
  'host',
  'port',
  'num_workers',
  'allowed_hosts',
  'domain',
  'datasets',
  'name',
  'expose_tools_over_mcp',
  'description',
  'verified',
  'verified_url',
  'value',
  'license',
  'skip_verification',
  'skip_verification_reward',
  'token_id_capture',
]);

/** One problem with a server's own settings. */
export interface ServerConfigIssue {
  /** `<instance>.<server type>.<implementation>.<key>…` */
  path: string;
  message: string;
}

/** True for a value that can serve as a {@link ServerConfigSchema} (any zod copy: checked by shape). */
export function isServerConfigSchema(value: unknown): value is ServerConfigSchema {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { safeParse?: unknown; shape?: unknown };
  return typeof candidate.safeParse === 'function' && typeof candidate.shape === 'object' && candidate.shape !== null;
}

/** The problems of `instance`'s settings against `schema`; `[]` when they fit. */
export function checkServerConfig(instance: ServerInstanceConfig, schema: ServerConfigSchema): ServerConfigIssue[] {
  const base = `${instance.instanceName}.${instance.serverType}.${instance.implementation}`;
  const issues: ServerConfigIssue[] = [];
  const parsed = schema.safeParse(instance.config);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) issues.push({ path: [base, ...issue.path.map(String)].join('.'), message: issue.message });
  }
  const declared = Object.keys(schema.shape);
  for (const key of Object.keys(instance.config)) {
    if (declared.includes(key) || COMMON_SERVER_FIELDS.has(key)) continue;
    const close = closeMatches(key, declared);
    const hint = close.length > 0 ? `did you mean ${close.map((c) => `'${c}'`).join(' or ')}?` : `its settings are ${declared.map((c) => `'${c}'`).join(', ') || '(none)'}`;
    issues.push({ path: `${base}.${key}`, message: `not a setting of ${instance.implementation}; ${hint}` });
  }
  return issues;
}

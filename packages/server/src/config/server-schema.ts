/**
 * zod schemas for the common fields of a server block's inner map. Every other
 * field is implementation-specific and passes through untouched.
 * @module
 */
import { z } from 'zod';
import type { ServerType } from './types.js';

/** Allowed `domain` values of a resources server. */
export const RESOURCES_DOMAINS = ['math', 'coding', 'agent', 'knowledge', 'instruction_following', 'long_context', 'safety', 'games', 'translation', 'e2e', 'rlhf', 'other'] as const;

// `${oc.env:PORT,8000}` yields a string, as in OmegaConf; accept digit strings for numbers.
const digits = (v: unknown): unknown => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v);

/** Fields every server block may carry. `port` 0/null/absent means "assign one". */
export const RUN_SERVER_SCHEMA = z.looseObject({
  entrypoint: z.string({ error: 'expected the entrypoint file, relative to the implementation dir (e.g. app.ts)' }).min(1),
  host: z.string().min(1).nullish(),
  port: z.preprocess(digits, z.int().min(0).max(65535)).nullish(),
  num_workers: z.preprocess(digits, z.int().positive()).nullish(),
});

/** Resources servers must also declare their `domain`. */
export const RESOURCES_SERVER_SCHEMA = RUN_SERVER_SCHEMA.extend({
  domain: z.enum(RESOURCES_DOMAINS, { error: `expected one of ${RESOURCES_DOMAINS.join(', ')}` }),
});

/** The schema for each server type. */
export const SERVER_SCHEMAS: Readonly<Record<ServerType, z.ZodType<Record<string, unknown>>>> = {
  resources_servers: RESOURCES_SERVER_SCHEMA,
  responses_api_models: RUN_SERVER_SCHEMA,
  responses_api_agents: RUN_SERVER_SCHEMA,
};

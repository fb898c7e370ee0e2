/**
 * The run identifier every process of one run shares (`nemo.run.id`).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { readEnv } from './env.js';
import type { Env } from './env.js';
import { parseOtelResourceAttributes } from './resources/otel-resource-attributes.js';

/**
 * Fills `config.runId` when it is empty and returns it. Order: `config.runId` (which `fromEnv`
 * already read from `<prefix>_RUN_ID`), then `nemo.run.id` inherited through
 * `OTEL_RESOURCE_ATTRIBUTES` (so children of a launcher share its run), then `SLURM_JOB_ID`, then
 * 12 random hex characters. Never throws.
 */
export function ensureRunId(config: { runId: string }, env: Env = process.env): string {
  if (config.runId) return config.runId;
  let inherited: unknown;
  try {
    inherited = parseOtelResourceAttributes(env['OTEL_RESOURCE_ATTRIBUTES'])['nemo.run.id'];
  } catch {
    inherited = undefined;
  }
  let slurm: string | undefined;
  try {
    slurm = readEnv(env, 'SLURM_JOB_ID');
  } catch {
    slurm = undefined;
  }
  config.runId = (typeof inherited === 'string' && inherited !== '' ? inherited : undefined) ?? slurm ?? randomBytes(6).toString('hex');
  return config.runId;
}

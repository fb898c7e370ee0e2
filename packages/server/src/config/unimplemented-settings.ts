/**
 * Top-level settings of the original that gym loads without error but does not act on. Each one
 * set in a config is named in a warning, so a NeMo Gym user never believes a setting took effect
 * when it did not. Values are never printed (several are API keys).
 * @module
 */
import type { ConfigMap } from './types.js';

interface Unimplemented {
  /** An exact key, or a prefix ending in `_` (`wandb_` covers `wandb_project`, `wandb_api_key`, …). */
  key: string;
  /** What the original does with it that gym does not. */
  effect: string;
}

/** The list, with what is missing; docs/compatibility.md has the same rows. */
export const UNIMPLEMENTED_SETTINGS: readonly Unimplemented[] = [
  { key: 'wandb_', effect: 'metrics are not exported to Weights & Biases' },
  { key: 'mlflow_', effect: 'metrics are not exported to MLflow' },
  { key: 'upload_rollouts', effect: 'rollouts are not uploaded' },
  { key: 'rollout_collection_driver', effect: 'no custom collection driver runs; the built-in collection does' },
  { key: 'reuse_existing_data_preparation', effect: 'datasets are read directly, there is no preparation to reuse' },
  { key: 'skills', effect: 'no skills directory is offered to the agent and rows get no skills_ref' },
  { key: 'profiling_enabled', effect: 'servers are not profiled' },
  { key: 'profiling_results_dirpath', effect: 'servers are not profiled' },
  { key: 'ray_head_node_address', effect: 'gym does not use Ray' },
  { key: 'dry_run', effect: 'servers start as usual' },
  { key: 'global_aiohttp_client_request_debug', effect: 'requests are not logged in debug form; use telemetry instead' },
];

/**
 * One warning per unimplemented setting present in `tree` with a value that would ask for
 * something (`null`, `false` and `''` ask for nothing, so they pass silently).
 */
export function unimplementedSettingWarnings(tree: ConfigMap): string[] {
  const warnings: string[] = [];
  for (const setting of UNIMPLEMENTED_SETTINGS) {
    const keys = Object.keys(tree).filter((k) => (setting.key.endsWith('_') ? k.startsWith(setting.key) : k === setting.key));
    const active = keys.filter((k) => tree[k] !== null && tree[k] !== false && tree[k] !== '' && tree[k] !== undefined);
    if (active.length === 0) continue;
    warnings.push(`${active.join(', ')}: accepted but not implemented in gym (${setting.effect}); see docs/compatibility.md`);
  }
  return warnings;
}

/**
 * Top-level keys that are never server instances.
 * @module
 */

/**
 * The original's reserved top-level keys, plus `telemetry`,
 * `token_id_capture` and `error_on_almost_servers`. A reserved key is never parsed as a server,
 * even when its value looks like a server block.
 */
export const RESERVED_TOP_LEVEL_KEYS: ReadonlySet<string> = new Set([
  'config_paths',
  'entrypoint',
  'default_host',
  'head_server',
  'disallowed_ports',
  'head_server_deps',
  'python_version',
  'pip_install_verbose',
  'use_absolute_ip',
  'uv_pip_set_python',
  'skip_venv_if_present',
  'hf_token',
  'ray_head_node_address',
  'port_range_low',
  'port_range_high',
  'dry_run',
  'model_endpoint_readiness_timeout_seconds',
  'allow_openai_version_skew',
  'uv_cache_dir',
  'uv_venv_dir',
  'results_dir',
  'cache_dir',
  '_inherit_from',
  '_copy',
  'nemo_gym_log_dir',
  'verbose',
  'json',
  'query',
  'observability_enabled',
  'model_call_capture_dir',
  'token_id_capture',
  'component_name',
  'skip_verification',
  'skip_verification_reward',
  'telemetry',
  'error_on_almost_servers',
]);

/** True when `key` is a reserved top-level key. */
export function isReservedKey(key: string): boolean {
  return RESERVED_TOP_LEVEL_KEYS.has(key);
}

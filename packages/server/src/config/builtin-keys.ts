/**
 * Keys gym reads with a built-in default. A plain `key=value` override of one of them works even
 * when no config file sets it: the key exists, with its default, for everyone who reads the docs.
 * @module
 */

/** Dotted paths of the settings with a built-in default (docs/config.md, docs/rollouts.md). */
export const BUILTIN_KEYS: ReadonlySet<string> = new Set([
  'default_host',
  'use_absolute_ip',
  'head_server',
  'head_server.host',
  'head_server.port',
  'port_range_low',
  'port_range_high',
  'disallowed_ports',
  'model_endpoint_readiness_timeout_seconds',
  'error_on_almost_servers',
  'skip_verification',
  'skip_verification_reward',
  'agent_name',
  'input_jsonl_fpath',
  'output_jsonl_fpath',
  'limit',
  'num_repeats',
  'num_repeats_add_seed',
  'prompt_config',
  'split',
  'num_samples_in_parallel',
  'resume_from_cache',
  'disable_aggregation',
  'responses_create_params',
  'telemetry',
  'telemetry.enabled',
  'telemetry.exporter',
  'telemetry.span_groups',
]);

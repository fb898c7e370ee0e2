/**
 * Rollout collection (`gym eval run`, `gym eval aggregate`): materialization, dispatch, output
 * files, resume and aggregate metrics. Behaviour: `docs/rollouts.md`.
 * @module
 */
export { collectRollouts } from './collect.js';
export type { CollectOptions, CollectResult } from './collect.js';
export { agentUrls, chooseAgent, exampleDataset, fetchEnvironment } from './environment.js';
export type { CollectionEnvironment } from './environment.js';
export { materializeRows } from './materialize.js';
export type { MaterializeOptions } from './materialize.js';
export { parseInputRows, readInputRows } from './input-rows.js';
export type { InputRows } from './input-rows.js';
export { parseJsonlObjects } from './jsonl.js';
export type { JsonlLine, JsonlParse, MalformedLine } from './jsonl.js';
export { DEFAULT_MAX_ROLLOUT_ATTEMPTS, maxRolloutAttempts, planRollouts, rolloutHistory } from './resume.js';
export type { RolloutHistory, RolloutPlan } from './resume.js';
export { openJsonlAppender, readJsonlFile, rolloutPaths } from './rollout-files.js';
export type { JsonlAppender, RolloutPaths } from './rollout-files.js';
export { runRollout } from './run-rollout.js';
export { traceIdFromHeaders, TRACE_ID_HEADER } from './trace-id.js';
export { aggregateShards, expandInputGlobs } from './shards.js';
export { FAILURE_CODES, ROLLOUT_WARNINGS, RolloutAgentError, RolloutFlagError, RolloutInputError, RolloutShardsNotFoundError } from './errors.js';
export type { AgentRef, FailureRecord, JsonObject, MaterializedRow, RolloutOutcome } from './types.js';

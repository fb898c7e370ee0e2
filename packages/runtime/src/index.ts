/**
 * @gym/runtime — the orchestrator, rollout collection and the `gym` CLI: starting an environment
 * and collecting rollouts from a program. What a server implementation imports is `@gym/server`.
 * @module
 */
export { startEnvironment } from './orchestrator/start-environment.js';
export type { RunningEnvironment, StartEnvironmentOptions } from './orchestrator/start-environment.js';
export { collectRollouts, materializeRows } from './rollouts/index.js';
export type { CollectOptions, CollectResult, MaterializedRow } from './rollouts/index.js';

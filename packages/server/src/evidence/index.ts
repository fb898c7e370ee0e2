/**
 * Rollout evidence: model-call capture, agent observations, the joined trajectory, health checks.
 * @module
 */
export { MODEL_CALL_ID_HEADER } from './model-call-capture.js';
export { readEvidenceSettings } from './settings.js';
export { rolloutIdOfRow } from '../protocol/rollout-id.js';
export { rolloutUrlPrefix } from '../server/rollout-prefix.js';
export type { EvidenceSettings } from './settings.js';
export type { AgentObservationBundle, ModelCallRef, ToolCallObservation, TrajectoryTurn } from './observations.js';

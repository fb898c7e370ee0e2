/**
 * The protocol between gym's processes: task rows, Responses data, verify requests and responses,
 * and the settings each server declares.
 * @module
 */
export { AGENT_REF, RAW_TASK_ROW, TASK_ROW } from './task-row.js';
export type { AgentRef, TaskRow } from './task-row.js';
export { RESPONSES_CREATE_PARAMS, RESPONSES_RESULT } from './responses.js';
export type { GymInputItem, GymOutputItem, TrajectoryItem, ResponseInputItem, ResponseOutputItem, ResponsesCreateParams, ResponsesResult, ResponseUsage, TrainingFields } from './responses.js';
export { VERIFY_REQUEST, VERIFY_RESPONSE } from './verify.js';
export type { VerifyRequest, VerifyResponse } from './verify.js';
export { checkServerConfig, COMMON_SERVER_FIELDS, isServerConfigSchema } from './server-config.js';
export type { ServerConfigIssue, ServerConfigSchema } from './server-config.js';
export { typedSchema } from './typed-schema.js';
export { quickSafeParse } from './schema-twin.js';

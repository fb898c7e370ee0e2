/**
 * Record types of rollout collection. Wire and JSONL fields keep the original's snake_case.
 * @module
 */

import { isJsonObject } from '@gym/server/internal/protocol/json.js';
import type { JsonObject } from '@gym/server/internal/protocol/json.js';
import type { AgentRef, TaskRow } from '@gym/server/internal/protocol/task-row.js';

export type { AgentRef, JsonObject };
export { isJsonObject };

/** One input row after materialization: a task row with the collector's keys, what `/run` receives. */
export interface MaterializedRow extends TaskRow {
  agent_ref: AgentRef;
  _ng_task_index: number;
  _ng_rollout_index: number;
  /** Present on resume retries: how many failed attempts preceded this one. */
  _ng_attempt_index?: number;
}

/** `error` of a failure-sidecar row. */
export interface FailureError {
  code: string;
  message: string;
  /** HTTP status of `/run`, when it answered. */
  status?: number;
  /** The upstream answer the failure started from (status, method, url, server, body_excerpt), when a server stated it. */
  upstream?: JsonObject;
}

/** One row of `<stem>_failures.jsonl`: one failed attempt. */
export interface FailureRecord extends JsonObject {
  _ng_task_index: number;
  _ng_rollout_index: number;
  agent_ref: AgentRef;
  _ng_attempt_index: number;
  error: FailureError;
  trace_id?: string;
  _ng_failure_class?: string;
  _ng_failure_terminal?: boolean;
}

/** What one `/run` call came to. */
export type RolloutOutcome =
  | { status: 'ok'; record: JsonObject }
  | { status: 'failed'; record: FailureRecord }
  /** The result asked to be written nowhere (`_ng_no_persist`); resume runs it again. */
  | { status: 'not_persisted' }
  /** Aborted by the caller (a second Ctrl-C); nothing is written, resume runs it again. */
  | { status: 'abandoned' };

/** `"<task>:<rollout>"`: the identity of a rollout across files and runs. */
export type RolloutKey = `${number}:${number}`;

/** The key of a row carrying `_ng_task_index` and `_ng_rollout_index`, or undefined when either is missing. */
export function rolloutKey(row: JsonObject): RolloutKey | undefined {
  const task = row['_ng_task_index'];
  const rollout = row['_ng_rollout_index'];
  if (typeof task !== 'number' || typeof rollout !== 'number') return undefined;
  return `${task}:${rollout}`;
}

/**
 * One rollout: `POST <agent>/run` with a materialized row, turned into a {@link RolloutOutcome}.
 * Never throws: every failure becomes a failure record for the sidecar.
 * @module
 */
import { FAILURE_CODES } from './errors.js';
import { declaredRolloutId } from '@gym/server/internal/protocol/rollout-id.js';
import { traceIdFromHeaders } from './trace-id.js';
import { scrubFailureText, upstreamFailure } from './upstream-failure.js';
import { isJsonObject } from './types.js';
import type { HttpClient } from '@gym/server/internal/http/types.js';
import type { FailureError, FailureRecord, JsonObject, MaterializedRow, RolloutOutcome } from './types.js';

/** Keys the collector stamps on every output and failure row. */
function collectorKeys(row: MaterializedRow): JsonObject {
  const keys: JsonObject = { _ng_task_index: row._ng_task_index, _ng_rollout_index: row._ng_rollout_index, agent_ref: row.agent_ref };
  if (row._ng_attempt_index !== undefined) keys['_ng_attempt_index'] = row._ng_attempt_index;
  return keys;
}

/** Builds a failure-sidecar row for `row`. */
export function failureRecord(row: MaterializedRow, error: FailureError, traceId?: string, extra: JsonObject = {}): FailureRecord {
  // the message quotes what the agent answered: scrubbed of secrets before it reaches a file
  const record: FailureRecord = { ...extra, ...collectorKeys(row), _ng_attempt_index: row._ng_attempt_index ?? 0, error: { ...error, message: scrubFailureText(error.message) } } as FailureRecord;
  if (traceId !== undefined) record.trace_id = traceId;
  return record;
}

/**
 * Sends `row` to `<agentUrl>/run` and classifies the answer: a 2xx JSON object is a rollout (or a
 * failure when it carries `_ng_failure_class`); non-2xx, transport errors and non-object bodies
 * are failures; an abort by `signal` is `abandoned`.
 */
export async function runRollout(http: HttpClient, agentUrl: string, row: MaterializedRow, signal?: AbortSignal): Promise<RolloutOutcome> {
  let response;
  try {
    response = await http.post<unknown>(`${agentUrl}/run`, row, { raw: true, signal, rolloutId: declaredRolloutId(row) });
  } catch (error) {
    if (signal?.aborted === true) return { status: 'abandoned' };
    const { code, traceId } = error as { code?: unknown; traceId?: string };
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'failed', record: failureRecord(row, { code: typeof code === 'string' ? code : FAILURE_CODES.runError, message }, traceId) };
  }
  // the collector's own CLIENT span knows the trace; without telemetry here, the agent's answer says it
  const traceId = response.traceId ?? traceIdFromHeaders(response.headers);
  if (response.status < 200 || response.status >= 300) {
    const message = `POST ${agentUrl}/run answered ${response.status}: ${truncate(response.text, 2000)}`;
    // the agent refused the row itself (400, 422): the same row can only be refused again
    const terminal = response.status === 400 || response.status === 422 ? { _ng_failure_terminal: true } : {};
    const upstream = upstreamFailure(response.headers, response.text);
    return { status: 'failed', record: failureRecord(row, { code: FAILURE_CODES.runStatus, message, status: response.status, ...(upstream === undefined ? {} : { upstream }) }, traceId, terminal) };
  }
  const result = response.body;
  if (!isJsonObject(result)) {
    const message = `POST ${agentUrl}/run answered ${response.status} with a body that is not a JSON object: ${truncate(response.text, 200)}`;
    return { status: 'failed', record: failureRecord(row, { code: FAILURE_CODES.badResult, message, status: response.status }, traceId) };
  }
  if (result['_ng_no_persist'] === true) return { status: 'not_persisted' };
  const failureClass = result['_ng_failure_class'];
  if (failureClass !== undefined && failureClass !== null) {
    const message = `the agent reported failure class '${String(failureClass)}'`;
    return { status: 'failed', record: failureRecord(row, { code: FAILURE_CODES.failureClass, message, status: response.status }, traceId, result) };
  }
  const record: JsonObject = { ...result, ...collectorKeys(row) };
  if (traceId !== undefined) record['trace_id'] = traceId;
  return { status: 'ok', record };
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * From raw capture lines to `ng_model_call_capture`: one normalised record per captured call
 * (tokens, finish reason, status, latency) and the rollout's totals. A count the provider did not
 * report stays `null`; a total is `null` as soon as one call's count is unknown.
 * @module
 */
import type { CaptureRead } from '@gym/server/internal/evidence/capture-store.js';
import type { ModelCallCaptureAttachment, ModelCallRecord, ObservationGap } from '@gym/server/internal/evidence/observations.js';

type Obj = Record<string, unknown>;

const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Token counts of a Responses or Chat Completions `usage`. */
export function tokenCounts(usage: unknown): Pick<ModelCallRecord, 'tokens_in' | 'tokens_out' | 'tokens_reasoning' | 'tokens_total' | 'cached_tokens'> {
  const u = obj(usage);
  const tokensIn = count(u['input_tokens']) ?? count(u['prompt_tokens']);
  const tokensOut = count(u['output_tokens']) ?? count(u['completion_tokens']);
  const total = count(u['total_tokens']) ?? (tokensIn !== null && tokensOut !== null ? tokensIn + tokensOut : null);
  return {
    tokens_in: tokensIn,
    tokens_out: tokensOut,
    tokens_reasoning: count(obj(u['output_tokens_details'])['reasoning_tokens']) ?? count(obj(u['completion_tokens_details'])['reasoning_tokens']),
    tokens_total: total,
    cached_tokens: count(obj(u['input_tokens_details'])['cached_tokens']) ?? count(obj(u['prompt_tokens_details'])['cached_tokens']),
  };
}

/** Why the model stopped: `incomplete_details.reason`, a chat choice's `finish_reason`, else `stop` for a completed Response. */
export function finishReasonOf(response: Obj): string | null {
  const incomplete = str(obj(response['incomplete_details'])['reason']);
  if (incomplete !== null) return incomplete;
  const choices = response['choices'];
  if (Array.isArray(choices)) return str(obj(choices[0])['finish_reason']);
  if (response['status'] === 'completed') {
    const output = response['output'];
    return Array.isArray(output) && output.some((i) => obj(i)['type'] === 'function_call') ? 'tool_calls' : 'stop';
  }
  return null;
}

/** One raw exchange as a {@link ModelCallRecord} (payloads kept). */
export function modelCallRecord(exchange: Obj, callIndex: number): ModelCallRecord {
  const response = obj(exchange['response']);
  const ref = obj(exchange['model_ref']);
  const modelRef = typeof ref['type'] === 'string' && typeof ref['name'] === 'string' ? { type: ref['type'], name: ref['name'] } : null;
  const ok = exchange['error_category'] === null || exchange['error_category'] === undefined;
  return {
    model_call_id: str(exchange['model_call_id']),
    response_id: ok ? str(response['id']) : null,
    call_index: callIndex,
    model_ref: modelRef,
    model: str(response['model']) ?? str(obj(exchange['request'])['model']),
    dialect: str(exchange['dialect']),
    status_code: count(exchange['status_code']),
    response_status: ok ? str(response['status']) : null,
    finish_reason: ok ? finishReasonOf(response) : null,
    error_category: str(exchange['error_category']),
    started_at: num(exchange['started_at']),
    completed_at: num(exchange['completed_at']),
    ...tokenCounts(ok ? response['usage'] : undefined),
    latency_total_ms: num(exchange['latency_ms']),
    trace_id: str(exchange['trace_id']),
    span_id: str(exchange['span_id']),
    request: exchange['request'],
    response: exchange['response'],
  };
}

/** Sum of `values`, or `null` when any is unknown (or there are none). */
function sumKnown(values: (number | null)[]): number | null {
  if (values.length === 0 || values.some((v) => v === null)) return null;
  return (values as number[]).reduce((a, b) => a + b, 0);
}

/** Why a capture lacks exchanges that were made: a full disk said as such. */
export function lostWriteDetail(code: string): string {
  const why = code === 'ENOSPC' ? 'no space left on device (ENOSPC): the capture disk is full' : code === 'EDQUOT' ? 'disk quota exceeded (EDQUOT)' : `the write failed (${code})`;
  return `model calls of this rollout were not captured: ${why}`;
}

/** The `ng_model_call_capture` attachment of a rollout, from its capture file. */
export function captureAttachment(rolloutId: string, read: CaptureRead): ModelCallCaptureAttachment {
  const calls = read.exchanges.map(({ exchange, index }) => modelCallRecord(exchange, index));
  const gaps: ObservationGap[] = [];
  if (!read.exists) gaps.push({ code: 'model_calls_unavailable', detail: 'no capture file for this rollout' });
  if (read.unreadable > 0) gaps.push({ code: 'model_call_capture_records_unreadable', detail: `${read.unreadable} unreadable line(s)` });
  if (read.lost !== undefined) gaps.push({ code: 'model_call_capture_write_failed', detail: lostWriteDetail(read.lost) });
  return {
    rollout_id: rolloutId,
    metrics: {
      tokens_in: sumKnown(calls.map((c) => c.tokens_in)),
      tokens_out: sumKnown(calls.map((c) => c.tokens_out)),
      tokens_reasoning: sumKnown(calls.map((c) => c.tokens_reasoning)),
      tokens_total: sumKnown(calls.map((c) => c.tokens_total)),
      cached_tokens: sumKnown(calls.map((c) => c.cached_tokens)),
      latency_total_ms: sumKnown(calls.map((c) => c.latency_total_ms)),
      num_calls: calls.length,
    },
    calls,
    ...(gaps.length === 0 ? {} : { gaps }),
  };
}

// A rollouts JSONL row carrying rollout evidence as collection writes it (`ng_trajectory`), for
// the show and report tests. `@gym/trace` reads these files without depending on the runtime.

export const HOSTILE = '</script><img src=x onerror=alert(1)>';

/** A row of rollout `rolloutId` in trace `traceId`: two model calls (the second failed), one tool call, one gap. */
export function evidenceRow(rolloutId: string, traceId: string): Record<string, unknown> {
  const call = (id: string, request: unknown, response: unknown, meta: Record<string, unknown>, tokens: [number | null, number | null]) => ({
    model_call_id: id,
    started_at: 1,
    completed_at: 2,
    duration_ms: 12.5,
    request,
    response,
    response_metadata: {
      response_id: `resp_${id}`,
      model_ref: { type: 'responses_api_models', name: 'policy_model' },
      model: 'policy-7b',
      dialect: 'responses',
      status_code: 200,
      response_status: 'completed',
      finish_reason: 'tool_calls',
      error_category: null,
      latency_ttft_ms: null,
      ...meta,
    },
    token_stats: { prompt_tokens: tokens[0], completion_tokens: tokens[1], reasoning_tokens: null, total_tokens: null, cached_tokens: null },
    invocation_id: `${rolloutId}:simple_agent`,
    trace_id: traceId,
    span_id: 'ab'.repeat(8),
  });
  return {
    _ng_task_index: 0,
    _ng_rollout_index: 0,
    reward: 0,
    trace_id: traceId,
    ng_trajectory: {
      schema_version: '1.0',
      task_id: '0',
      rollout_id: rolloutId,
      invocations: [],
      turns: [],
      model_calls: [
        call('c1', { input: [{ role: 'user', content: 'weather in sf?' }] }, { output: [{ type: 'function_call', name: 'get_weather', arguments: '{"city":"sf"}' }] }, {}, [45, 4]),
        call(
          'c2',
          {
            input: [
              { role: 'user', content: 'weather in sf?' },
              { type: 'function_call_output', output: HOSTILE },
            ],
          },
          { error: { message: 'upstream 502' } },
          { status_code: 502, error_category: 'server_error', finish_reason: null },
          [null, null],
        ),
      ],
      tool_calls: [
        {
          kind: 'tool_call',
          invocation_id: `${rolloutId}:simple_agent`,
          tool_call_id: 'call_1',
          tool_name: 'get_weather',
          duration_ms: 8,
          timing_source: 'harness',
          status: 'completed',
          arguments: '{"city":"sf"}',
          output: HOSTILE,
        },
      ],
      gaps: [{ code: 'model_call_capture_incomplete', invocation_id: `${rolloutId}:simple_agent`, detail: 'call 3 failed: GYM_HTTP_REQUEST' }],
    },
  };
}

// A completed Responses API object as OpenAI's API returns it (every field its client parses), around
// the given output items: what the model-server tests answer with.
export function openAIResponse(output: readonly Record<string, unknown>[]): Record<string, unknown> {
  return {
    id: 'resp_1',
    object: 'response',
    created_at: 1_700_000_000,
    model: 'policy',
    status: 'completed',
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    top_p: 1,
    tool_choice: 'auto',
    tools: [],
    output,
    usage: { input_tokens: 5, input_tokens_details: { cached_tokens: 0 }, output_tokens: 4, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 9 },
  };
}

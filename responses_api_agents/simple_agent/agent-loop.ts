/**
 * The simple_agent loop: model ↔ tools until the model answers in text,
 * stops early (`incomplete_details`) or `max_steps` is reached. Tool calls run sequentially in
 * output order; a tool's HTTP error is model-visible text, a model HTTP error fails the rollout.
 * @module
 */
import { GymUpstreamError, quickSafeParse, RESPONSES_RESULT } from '@gym/server';
import type { CookieMap, GymInputItem, HttpClient, ResponsesCreateParams, ResponsesResult, TraceScope, TrajectoryItem } from '@gym/server';
import type { ResponseFunctionToolCall, ResponseUsage } from 'openai/resources/responses/responses';
import type { AgentObserver } from './observations.js';

/** Inputs of one agent loop. */
export interface AgentLoopOptions {
  http: HttpClient;
  /** `http://host:port` of the model server. */
  modelUrl: string;
  /** `http://host:port` of the resources server. */
  resourcesUrl: string;
  /** The Responses create params of the task. */
  params: ResponsesCreateParams;
  /** The rollout's resources-server cookies (from `/seed_session`). */
  resourcesCookies: CookieMap;
  /** `null` = no limit. */
  maxSteps: number | null;
  /** Model route, default `/v1/responses`; `/ng-rollout/<id>/v1/responses` when evidence is on. */
  modelPath?: string;
  /** Records model and tool calls (evidence on); absent = nothing recorded. */
  observer?: AgentObserver;
  /** The rollout's trace scope (`route.scope`): every call of the loop is in the rollout's trace. */
  scope?: TraceScope | undefined;
}

/** The loop's result: the last model response with `output` = the whole trajectory. */
export interface AgentLoopResult {
  response: ResponsesResult;
  resourcesCookies: CookieMap;
  modelCookies: CookieMap;
  steps: number;
}

type Usage = Record<string, unknown>;

/** Adds token usage field by field (nested `*_details` too). */
export function addUsage(total: Usage | undefined, next: unknown): Usage | undefined {
  if (next === null || typeof next !== 'object') return total;
  const sum: Usage = { ...(total ?? {}) };
  for (const [key, value] of Object.entries(next as Usage)) {
    if (typeof value === 'number') sum[key] = ((sum[key] as number | undefined) ?? 0) + value;
    else if (value !== null && typeof value === 'object') sum[key] = addUsage(sum[key] as Usage | undefined, value);
  }
  return sum;
}

async function callTool(options: AgentLoopOptions, call: ResponseFunctionToolCall, cookies: CookieMap): Promise<{ output: string; cookies: CookieMap; failed: boolean }> {
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return { output: JSON.stringify({ error: `Invalid tool call arguments: ${JSON.stringify(call.arguments)}` }), cookies, failed: true };
  }
  const reply = await options.http.post(`${options.resourcesUrl}/${encodeURIComponent(call.name)}`, args, { cookies, raw: true, scope: options.scope });
  return { output: reply.text, cookies: { ...cookies, ...reply.cookies }, failed: reply.status >= 400 };
}

async function callModel(options: AgentLoopOptions, body: ResponsesCreateParams, cookies: CookieMap) {
  const url = `${options.modelUrl}${options.modelPath ?? '/v1/responses'}`;
  const { observer, scope } = options;
  if (observer === undefined) return options.http.post<unknown>(url, body, { cookies, scope });
  let reply;
  try {
    reply = await options.http.post<unknown>(url, body, { cookies, scope });
  } catch (error) {
    observer.modelCallFailed(error);
    throw error;
  }
  observer.modelCall(reply.headers, reply.body);
  return reply;
}

// A step's model reply and tool replies live in these two functions' frames, not the loop's: a
// suspended async function keeps the variables of its scope, so with thousands of rollouts waiting
// on the model, a reply kept by the loop frame would stay alive through the next model call.

/** One model call: the next Response and the model's cookies. */
async function modelTurn(options: AgentLoopOptions, input: GymInputItem[], trajectory: TrajectoryItem[], cookies: CookieMap): Promise<{ response: ResponsesResult; cookies: CookieMap }> {
  // output items go back as input items, as the Responses API takes them; the body is a
  // temporary of the call, so nothing here keeps it while the model answers
  const reply = await callModel(options, { ...options.params, input: [...input, ...(trajectory as GymInputItem[])] }, cookies);
  const parsed = quickSafeParse(RESPONSES_RESULT, reply.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new GymUpstreamError(
      'GYM_AGENT_BAD_MODEL_RESPONSE',
      `The model server at ${options.modelUrl} answered /v1/responses with something that is not a Response (${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}).`,
    );
  }
  return { response: parsed.data, cookies: { ...cookies, ...reply.cookies } };
}

/** One tool call: appends its output to the trajectory, returns the resources server's cookies. */
async function toolTurn(options: AgentLoopOptions, call: ResponseFunctionToolCall, cookies: CookieMap, trajectory: TrajectoryItem[]): Promise<CookieMap> {
  const timing = options.observer?.toolCall(call);
  const tool = await callTool(options, call, cookies);
  timing?.finish(tool.output, tool.failed);
  trajectory.push({ type: 'function_call_output', call_id: call.call_id, output: tool.output });
  return tool.cookies;
}

/** Runs the loop. Throws when the model server fails or answers something that is not a Response. */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { params } = options;
  const input: GymInputItem[] = typeof params.input === 'string' ? [{ role: 'user', content: params.input }] : [...(params.input ?? [])];
  const trajectory: TrajectoryItem[] = [];
  let usage: Usage | undefined;
  let modelCookies: CookieMap = {};
  let resourcesCookies = options.resourcesCookies;
  let last: ResponsesResult;
  let step = 0;
  for (;;) {
    step++;
    const turn = await modelTurn(options, input, trajectory, modelCookies);
    modelCookies = turn.cookies;
    last = turn.response;
    const output = last.output;
    trajectory.push(...output);
    usage = addUsage(usage, last.usage);
    if (last.incomplete_details) break;
    const calls = output.filter((item): item is ResponseFunctionToolCall => item.type === 'function_call');
    const answered = output.some((item) => item.type === 'message' && (('role' in item ? item.role : undefined) ?? 'assistant') === 'assistant');
    // an output of only reasoning continues; an empty one would loop for ever, so it stops too
    if (calls.length === 0 && (answered || output.length === 0)) break;
    for (const call of calls) resourcesCookies = await toolTurn(options, call, resourcesCookies, trajectory);
    if (options.maxSteps !== null && step >= options.maxSteps) break;
  }
  // the sum keeps the fields (and nesting) of the ResponseUsage values it added up
  return { response: { ...last, output: trajectory, ...(usage === undefined ? {} : { usage: usage as unknown as ResponseUsage }) }, resourcesCookies, modelCookies, steps: step };
}

/**
 * The simple_agent loop: model ↔ tools until the model answers in text,
 * stops early (`incomplete_details`) or `max_steps` is reached. Tool calls run sequentially in
 * output order; a tool's HTTP error is model-visible text, a model HTTP error fails the rollout.
 * @module
 */
import { GymUpstreamError } from '@gym/runtime';
import type { CookieMap, HttpClient } from '@gym/runtime';
import type { AgentObserver } from './observations.js';

type Item = Record<string, unknown>;

/** Inputs of one agent loop. */
export interface AgentLoopOptions {
  http: HttpClient;
  /** `http://host:port` of the model server. */
  modelUrl: string;
  /** `http://host:port` of the resources server. */
  resourcesUrl: string;
  /** The Responses create params of the task. */
  params: Item;
  /** The rollout's resources-server cookies (from `/seed_session`). */
  resourcesCookies: CookieMap;
  /** `null` = no limit. */
  maxSteps: number | null;
  /** Model route, default `/v1/responses`; `/ng-rollout/<id>/v1/responses` when evidence is on. */
  modelPath?: string;
  /** Records model and tool calls (evidence on); absent = nothing recorded. */
  observer?: AgentObserver;
}

/** The loop's result: the last model response with `output` = the whole trajectory. */
export interface AgentLoopResult {
  response: Item;
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

async function callTool(http: HttpClient, resourcesUrl: string, call: Item, cookies: CookieMap): Promise<{ output: string; cookies: CookieMap; failed: boolean }> {
  let args: unknown;
  try {
    args = JSON.parse(String(call['arguments']));
  } catch {
    return { output: JSON.stringify({ error: `Invalid tool call arguments: ${JSON.stringify(call['arguments'])}` }), cookies, failed: true };
  }
  const reply = await http.post(`${resourcesUrl}/${encodeURIComponent(String(call['name']))}`, args, { cookies, raw: true });
  return { output: reply.text, cookies: { ...cookies, ...reply.cookies }, failed: reply.status >= 400 };
}

async function callModel(options: AgentLoopOptions, body: Item, cookies: CookieMap) {
  const url = `${options.modelUrl}${options.modelPath ?? '/v1/responses'}`;
  const { observer } = options;
  if (observer === undefined) return options.http.post<Item>(url, body, { cookies });
  let reply;
  try {
    reply = await options.http.post<Item>(url, body, { cookies });
  } catch (error) {
    observer.modelCallFailed(error);
    throw error;
  }
  observer.modelCall(reply.headers, reply.body);
  return reply;
}

/** Runs the loop. Throws when the model server fails or answers something that is not a Response. */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { http, params } = options;
  const input: unknown[] = typeof params['input'] === 'string' ? [{ role: 'user', content: params['input'] }] : [...((params['input'] as unknown[] | undefined) ?? [])];
  const trajectory: Item[] = [];
  let usage: Usage | undefined;
  let modelCookies: CookieMap = {};
  let resourcesCookies = options.resourcesCookies;
  let last: Item;
  let step = 0;
  for (;;) {
    step++;
    const reply = await callModel(options, { ...params, input: [...input, ...trajectory] }, modelCookies);
    modelCookies = { ...modelCookies, ...reply.cookies };
    last = reply.body;
    if (last === null || typeof last !== 'object' || !Array.isArray(last['output'])) {
      throw new GymUpstreamError('GYM_AGENT_BAD_MODEL_RESPONSE', `The model server at ${options.modelUrl} answered /v1/responses with something that is not a Response (no output list).`);
    }
    const output = last['output'] as Item[];
    trajectory.push(...output);
    usage = addUsage(usage, last['usage']);
    if (last['incomplete_details']) break;
    const calls = output.filter((item) => item['type'] === 'function_call');
    const answered = output.some((item) => item['type'] === 'message' && (item['role'] ?? 'assistant') === 'assistant');
    // an output of only reasoning continues; an empty one would loop for ever, so it stops too
    if (calls.length === 0 && (answered || output.length === 0)) break;
    for (const call of calls) {
      const timing = options.observer?.toolCall(call);
      const tool = await callTool(http, options.resourcesUrl, call, resourcesCookies);
      timing?.finish(tool.output, tool.failed);
      resourcesCookies = tool.cookies;
      trajectory.push({ type: 'function_call_output', call_id: call['call_id'], output: tool.output });
    }
    if (options.maxSteps !== null && step >= options.maxSteps) break;
  }
  return { response: { ...last, output: trajectory, ...(usage === undefined ? {} : { usage }) }, resourcesCookies, modelCookies, steps: step };
}

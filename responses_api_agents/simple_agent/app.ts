/**
 * `simple_agent`: one rollout per `POST /run` — seed the resources server, run the model ↔ tools
 * loop in-process, verify — and the same loop as `POST /v1/responses` for outside callers.
 * `/run` calls the loop directly, not its own `/v1/responses` over HTTP: the
 * trajectory is the same and a rollout pays no extra hop; the loop still runs under the
 * `gym.agent.responses` span the original's hop has.
 * @module
 */
import { z } from 'zod';
import { SPAN } from '@gym/names';
import { defineAgentServer, GymUpstreamError, gymSpan, quickSafeParse, readEvidenceSettings, rolloutIdOfRow, rolloutUrlPrefix, VERIFY_RESPONSE } from '@gym/server';
import type { CookieMap, ResponsesCreateParams, RouteContext, ServerFactory, TaskRow, TraceScope, VerifyRequest, VerifyResponse } from '@gym/server';
import { runAgentLoop } from './agent-loop.js';
import { AgentObserver, answerOf, questionOf } from './observations.js';

const SERVER_REF = z.object({ type: z.string(), name: z.string() });

/** The simple agent's config fields. */
export const SIMPLE_AGENT_CONFIG = z.looseObject({
  resources_server: SERVER_REF,
  model_server: SERVER_REF,
  max_steps: z.number().int().positive().nullable().default(null),
  skip_verification: z.boolean().default(false),
  skip_verification_reward: z.number().default(0),
});

/** Its settings, as `gym env validate` checks them. */
export const configSchema = SIMPLE_AGENT_CONFIG;

function copyCookies(context: RouteContext, cookies: CookieMap): void {
  const values = Object.entries(cookies).map(([name, value]) => `${name}=${value}; Path=/; HttpOnly; SameSite=Lax`);
  if (values.length > 0) context.reply.header('set-cookie', values);
}

const createSimpleAgent: ServerFactory = (context) => {
  const parsed = SIMPLE_AGENT_CONFIG.safeParse(context.config);
  if (!parsed.success) {
    throw new Error(`Invalid simple_agent config of '${context.instance.instanceName}': ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const config = parsed.data;
  const { http } = context;
  const resourcesUrl = context.serverUrl({ type: 'resources_servers', name: config.resources_server.name });
  const modelUrl = context.serverUrl({ type: 'responses_api_models', name: config.model_server.name });
  // evidence on: model calls go through the rollout prefix (so the model server captures them) and
  // the agent reports what it observed; decided once, here
  const evidence = readEvidenceSettings(context.globalConfig).enabled;
  const modelRef = { type: 'responses_api_models', name: config.model_server.name };
  const loop = (params: ResponsesCreateParams, resourcesCookies: CookieMap, scope: TraceScope | undefined, rolloutId?: string | null, observer?: AgentObserver) =>
    runAgentLoop({
      scope,
      http,
      modelUrl,
      resourcesUrl,
      params,
      resourcesCookies,
      maxSteps: config.max_steps,
      ...(evidence && rolloutId != null ? { modelPath: `${rolloutUrlPrefix(rolloutId)}/v1/responses` } : {}),
      ...(observer === undefined ? {} : { observer }),
    });

  const verify = async (request: VerifyRequest, cookies: CookieMap, scope: TraceScope | undefined): Promise<VerifyResponse> => {
    const answer = (await http.post<unknown>(`${resourcesUrl}/verify`, request, { cookies, scope })).body;
    // as the original validates its verify response: a reward-less answer fails the rollout here,
    // named, rather than reaching the rollouts file
    const parsed = quickSafeParse(VERIFY_RESPONSE, answer);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new GymUpstreamError(
        'GYM_AGENT_BAD_VERIFY_RESPONSE',
        `The resources server at ${resourcesUrl} answered /verify without a valid verify response (${issue.path.join('.') || 'body'}: ${issue.message}).`,
      );
    }
    return parsed.data;
  };

  // the seed reply dies in this frame instead of staying alive in run's through the whole loop
  const seedSession = async (row: TaskRow, cookies: CookieMap, scope: TraceScope | undefined): Promise<CookieMap> => ({
    ...cookies,
    ...(await http.post(`${resourcesUrl}/seed_session`, row, { cookies, scope })).cookies,
  });

  const run = async (row: TaskRow, route: RouteContext, observer?: AgentObserver) => {
    const { scope } = route;
    const seeded = await seedSession(row, route.cookies, scope);
    // the original's /run calls its own /v1/responses here; the loop runs in-process, under the span that hop has
    const result = await gymSpan('agent', SPAN.AGENT_RESPONSES, (_span, inner) => loop(row.responses_create_params, seeded, inner, observer?.rolloutId, observer), { scope });
    const rolled: VerifyResponse = config.skip_verification
      ? { ...row, response: result.response, reward: config.skip_verification_reward, verification_skipped: true }
      : await verify({ ...row, response: result.response }, result.resourcesCookies, scope);
    if (observer === undefined) return rolled;
    const ng_agent_observations = observer.bundle({ taskId: taskIdOf(row), question: questionOf(row.responses_create_params.input), answer: answerOf(result.response.output), steps: result.steps });
    return { ...rolled, ng_agent_observations };
  };

  return defineAgentServer({
    name: context.instance.instanceName,
    run: {
      handler: async (row, route) => {
        if (!evidence) return run(row, route);
        const observer = new AgentObserver(route.rolloutId ?? rolloutIdOfRow(row), modelRef);
        try {
          return await run(row, route, observer);
        } catch (error) {
          // a failed rollout still carries what was observed up to the failure: the collector
          // writes it to the failures file with its captured calls
          const message = error instanceof Error ? error.message : String(error);
          const bundle = observer.bundle({ taskId: taskIdOf(row), question: questionOf(row.responses_create_params['input']), answer: null, steps: 0, error });
          return { _ng_failure_class: 'agent_error', error_message: message, ng_agent_observations: bundle };
        }
      },
    },
    responses: {
      handler: async (params, route) => {
        const result = await loop(params, route.cookies, route.scope, route.rolloutId);
        copyCookies(route, { ...result.resourcesCookies, ...result.modelCookies });
        return result.response;
      },
    },
    // As the original: the resources server computes the metrics of what it verified; with
    // verification skipped there is nothing to aggregate (the collector keeps its own profile).
    aggregateMetrics: {
      handler: async (body, route) =>
        config.skip_verification
          ? { group_level_metrics: [], agent_metrics: {}, key_metrics: {} }
          : ((await http.post<Record<string, unknown>>(`${resourcesUrl}/aggregate_metrics`, body, { scope: route.scope })).body as never),
    },
  });
};

function taskIdOf(row: Record<string, unknown>): string {
  const task = row['_ng_task_index'];
  return typeof task === 'number' ? String(task) : 'unknown';
}

export default createSimpleAgent;

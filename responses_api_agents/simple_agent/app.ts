/**
 * `simple_agent`: one rollout per `POST /run` — seed the resources server, run the model ↔ tools
 * loop in-process, verify — and the same loop as `POST /v1/responses` for outside callers.
 * `/run` calls the loop directly, not its own `/v1/responses` over HTTP: the
 * trajectory is the same and a rollout pays no extra hop.
 * @module
 */
import { z } from 'zod';
import { defineAgentServer } from '@gym/runtime';
import type { CookieMap, RouteContext, ServerFactory } from '@gym/runtime';
import { runAgentLoop } from './agent-loop.js';

const SERVER_REF = z.object({ type: z.string(), name: z.string() });

/** The simple agent's config fields. */
export const SIMPLE_AGENT_CONFIG = z.looseObject({
  resources_server: SERVER_REF,
  model_server: SERVER_REF,
  max_steps: z.number().int().positive().nullable().default(null),
  skip_verification: z.boolean().default(false),
  skip_verification_reward: z.number().default(0),
});

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
  const loop = (params: Record<string, unknown>, resourcesCookies: CookieMap) =>
    runAgentLoop({ http, modelUrl, resourcesUrl, params, resourcesCookies, maxSteps: config.max_steps });

  return defineAgentServer({
    name: context.instance.instanceName,
    run: {
      handler: async (row, route) => {
        const seed = await http.post(`${resourcesUrl}/seed_session`, row, { cookies: route.cookies });
        const result = await loop(row.responses_create_params, { ...route.cookies, ...seed.cookies });
        if (config.skip_verification) {
          return { ...row, response: result.response, reward: config.skip_verification_reward, verification_skipped: true };
        }
        const verified = await http.post(`${resourcesUrl}/verify`, { ...row, response: result.response }, { cookies: result.resourcesCookies });
        return verified.body;
      },
    },
    responses: {
      handler: async (params, route) => {
        const result = await loop(params, route.cookies);
        copyCookies(route, { ...result.resourcesCookies, ...result.modelCookies });
        return result.response;
      },
    },
    aggregateMetrics: {
      handler: async (body) => (await http.post<Record<string, unknown>>(`${resourcesUrl}/aggregate_metrics`, body)).body as never,
    },
  });
};

export default createSimpleAgent;

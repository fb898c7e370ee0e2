/**
 * `defineAgentServer()`: `POST /run`, `POST /v1/responses` and `POST /aggregate_metrics`.
 * @module
 */
import { z } from 'zod';
import { createServerApp } from './app.js';
import { addAggregateMetricsRoute, metricsHooks } from './endpoint.js';
import { addJsonRoute } from './json-route.js';
import { isValidResponsesRequest, RESPONSES_REQUEST } from './responses-request.js';
import { typedSchema } from '../protocol/typed-schema.js';
import type { ResponsesCreateParams } from '../protocol/responses.js';
import type { TaskRow } from '../protocol/task-row.js';
import type { AggregateMetricsResult, BuildOptions, EndpointSpec, ServerDefinition } from './endpoint.js';
import type { VerifyMetricsHooks } from '../reward-stats/verify-metrics.js';

/** Default `/run` body: a task row, `{responses_create_params, ...row}`, its params checked as `/v1/responses` checks them. */
export const RUN_REQUEST = typedSchema<TaskRow>(z.looseObject({ responses_create_params: RESPONSES_REQUEST }), isValidRunRequest);

/** Default `/v1/responses` body of an agent: the Responses create params. */
export const AGENT_RESPONSES_REQUEST = typedSchema<ResponsesCreateParams>(RESPONSES_REQUEST, isValidResponsesRequest);

function isValidRunRequest(row: unknown): boolean {
  return row !== null && typeof row === 'object' && !Array.isArray(row) && isValidResponsesRequest((row as Record<string, unknown>)['responses_create_params']);
}

/** The spec of an agent server. */
export interface AgentServerSpec<R extends z.ZodType, P extends z.ZodType> {
  name: string;
  /** `POST /run`: one rollout; returns the verify response. */
  run: EndpointSpec<R>;
  /** `POST /v1/responses`: the agent loop for outside callers; returns a `Response`. */
  responses: EndpointSpec<P>;
  /** `POST /aggregate_metrics` in full; `simple_agent` forwards it to its resources server. Default: the reward profile with `computeMetrics` / `getKeyMetrics`. */
  aggregateMetrics?: EndpointSpec<z.ZodType, AggregateMetricsResult>;
  /** The agent's own metrics over every verify response, grouped by task (the original's `compute_metrics`). */
  computeMetrics?: VerifyMetricsHooks['computeMetrics'];
  /** The headline metrics (the original's `get_key_metrics`); default every `mean/*` entry. */
  getKeyMetrics?: VerifyMetricsHooks['getKeyMetrics'];
}

/** A defined agent server. */
export interface AgentServerDefinition extends ServerDefinition {
  readonly kind: 'agent';
}

/** Defines an agent server. */
export function defineAgentServer<R extends z.ZodType = typeof RUN_REQUEST, P extends z.ZodType = typeof AGENT_RESPONSES_REQUEST>(spec: AgentServerSpec<R, P>): AgentServerDefinition {
  const serverClass = 'SimpleResponsesAPIAgent';
  const build = (options: BuildOptions = {}) => {
    const app = createServerApp({ serverClass, ...options, name: options.name ?? spec.name });
    addJsonRoute(app, { method: 'POST', path: '/run', input: spec.run.input ?? RUN_REQUEST, handler: spec.run.handler as EndpointSpec<z.ZodType>['handler'], endpoint: 'rollout' });
    addJsonRoute(app, {
      method: 'POST',
      path: '/v1/responses',
      input: spec.responses.input ?? AGENT_RESPONSES_REQUEST,
      handler: spec.responses.handler as EndpointSpec<z.ZodType>['handler'],
      endpoint: 'agent_responses',
    });
    addAggregateMetricsRoute(app, spec.aggregateMetrics, metricsHooks(spec));
    return app;
  };
  return { kind: 'agent', name: spec.name, serverClass, routes: ['/run', '/v1/responses', '/aggregate_metrics'], build };
}

/**
 * Shared pieces of the three server builders: endpoint specs, definitions, default schemas.
 * @module
 */
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { addJsonRoute } from './json-route.js';
import { computeVerifyMetrics } from '../reward-stats/verify-metrics.js';
import type { ServerAppOptions } from './app.js';
import type { ModelCallCapture } from '../evidence/model-call-capture.js';
import type { RouteHandler } from './json-route.js';
import type { VerifyMetricsHooks } from '../reward-stats/verify-metrics.js';

/** One endpoint of a server: optional body schema and handler. */
export interface EndpointSpec<S extends z.ZodType, Out = unknown> {
  /** Body schema; the builder's default applies when omitted. */
  input?: S;
  handler: RouteHandler<z.output<S>, Out>;
}

/** Options when building a defined server; `name` defaults to the definition's name. */
export type BuildOptions = Partial<ServerAppOptions> & {
  /** Model servers: capture calls of `/ng-rollout/<id>/…` (rollout evidence on); absent = no capture. */
  modelCapture?: ModelCallCapture;
};

/** A defined server, built into a fastify app per process. */
export interface ServerDefinition {
  readonly kind: 'resources' | 'model' | 'agent';
  /** Default instance name. */
  readonly name: string;
  /** Label of cookies and 500 bodies, as the original's base class names. */
  readonly serverClass: string;
  /** The POST routes the app serves (besides `GET /`). */
  readonly routes: readonly string[];
  /** Builds a fresh app; listen with `listen(app)` or test with `app.inject`. */
  build(options?: BuildOptions): FastifyInstance;
}

/**
 * `POST /aggregate_metrics` body. Each rollout (`_ng_task_index`, `_ng_rollout_index`, both 0 when
 * absent) may appear once: the original refuses duplicates too, with a 500 where we answer 422.
 */
export const AGGREGATE_METRICS_REQUEST = z.looseObject({ verify_responses: z.array(z.looseObject({})) }).superRefine((body, ctx) => {
  const seen = new Map<string, number>();
  body.verify_responses.forEach((vr, i) => {
    const key = `${String(vr['_ng_task_index'] ?? 0)}:${String(vr['_ng_rollout_index'] ?? 0)}`;
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else ctx.addIssue({ code: 'custom', path: ['verify_responses', i], message: `rollout ${key} (_ng_task_index:_ng_rollout_index) is already at index ${first}` });
  });
});

/** `POST /aggregate_metrics` answer. */
export interface AggregateMetricsResult {
  group_level_metrics: unknown[];
  agent_metrics: Record<string, unknown>;
  key_metrics: Record<string, unknown>;
  [extra: string]: unknown;
}

/**
 * Adds `POST /aggregate_metrics` (shared by resources and agent servers): `spec` when given, else
 * the original's default computation with the server's `hooks`.
 */
export function addAggregateMetricsRoute(app: FastifyInstance, spec: EndpointSpec<z.ZodType, AggregateMetricsResult> | undefined, hooks: VerifyMetricsHooks = {}): void {
  addJsonRoute(app, {
    method: 'POST',
    path: '/aggregate_metrics',
    input: spec?.input ?? AGGREGATE_METRICS_REQUEST,
    handler: spec?.handler ?? ((body) => computeVerifyMetrics((body as z.output<typeof AGGREGATE_METRICS_REQUEST>).verify_responses, hooks)),
  });
}

/** The metrics hooks a server spec declares, without `undefined` entries (exact optional types). */
export function metricsHooks(spec: VerifyMetricsHooks): VerifyMetricsHooks {
  return {
    ...(spec.computeMetrics === undefined ? {} : { computeMetrics: spec.computeMetrics }),
    ...(spec.getKeyMetrics === undefined ? {} : { getKeyMetrics: spec.getKeyMetrics }),
  };
}

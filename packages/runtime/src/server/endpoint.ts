/**
 * Shared pieces of the three server builders: endpoint specs, definitions, default schemas.
 * @module
 */
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { addJsonRoute } from './json-route.js';
import type { ServerAppOptions } from './app.js';
import type { ModelCallCapture } from '../evidence/model-call-capture.js';
import type { RouteHandler } from './json-route.js';

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

/** `POST /aggregate_metrics` body. */
export const AGGREGATE_METRICS_REQUEST = z.looseObject({ verify_responses: z.array(z.looseObject({})) });

/** `POST /aggregate_metrics` answer. */
export interface AggregateMetricsResult {
  group_level_metrics: unknown[];
  agent_metrics: Record<string, unknown>;
  key_metrics: Record<string, unknown>;
  [extra: string]: unknown;
}

/**
 * Placeholder used when a server passes no `aggregateMetrics`: empty metrics. The statistics of
 * belong to the rollout-metrics module, which servers will pass here.
 */
export function emptyAggregateMetrics(): AggregateMetricsResult {
  return { group_level_metrics: [], agent_metrics: {}, key_metrics: {} };
}

/** Adds `POST /aggregate_metrics` (shared by resources and agent servers): `spec`, else empty metrics. */
export function addAggregateMetricsRoute(app: FastifyInstance, spec: EndpointSpec<z.ZodType, AggregateMetricsResult> | undefined): void {
  addJsonRoute(app, {
    method: 'POST',
    path: '/aggregate_metrics',
    input: spec?.input ?? AGGREGATE_METRICS_REQUEST,
    handler: spec?.handler ?? emptyAggregateMetrics,
  });
}

/**
 * `defineResourcesServer()`: tools as `POST /<tool_name>`, plus `POST /seed_session`,
 * `POST /verify`, `POST /aggregate_metrics` and `GET /reverify_mode`.
 * @module
 */
import { z } from 'zod';
import { GymHttpInvalidRouteError } from '../http/errors.js';
import { createServerApp } from './app.js';
import { anyObjectTwin, withTwin } from '../protocol/schema-twin.js';
import { addAggregateMetricsRoute, metricsHooks } from './endpoint.js';
import { addJsonRoute, isThenable } from './json-route.js';
import { VERIFY_REQUEST } from '../protocol/verify.js';
import type { AggregateMetricsResult, BuildOptions, EndpointSpec, ServerDefinition } from './endpoint.js';
import type { VerifyMetricsHooks } from '../reward-stats/verify-metrics.js';

/** Default `/verify` body: `{responses_create_params, response}` plus any task fields (the protocol's). */
export { VERIFY_REQUEST };
/** Default `/seed_session` body: any object (the agent sends the whole task row). */
export const SEED_SESSION_REQUEST = withTwin(z.looseObject({}), anyObjectTwin);

/** What a verify handler returns; the base answers `{...request, ...result}`. */
export interface VerifyResult {
  reward: number;
  [extra: string]: unknown;
}

/** The spec of a resources server. Tool names are route paths and the names the model sees. */
export interface ResourcesServerSpec<T extends Record<string, z.ZodType>, V extends z.ZodType> {
  name: string;
  tools: { [K in keyof T]: { input: T[K]; handler: EndpointSpec<T[K]>['handler'] } };
  verify: EndpointSpec<V, VerifyResult>;
  seedSession?: EndpointSpec<z.ZodType>;
  /** `POST /aggregate_metrics` in full. Default: the reward profile with `computeMetrics` / `getKeyMetrics`. */
  aggregateMetrics?: EndpointSpec<z.ZodType, AggregateMetricsResult>;
  /** The server's own metrics over every verify response, grouped by task (the original's `compute_metrics`). */
  computeMetrics?: VerifyMetricsHooks['computeMetrics'];
  /** The headline metrics (the original's `get_key_metrics`); default every `mean/*` entry. */
  getKeyMetrics?: VerifyMetricsHooks['getKeyMetrics'];
  /** `GET /reverify_mode` answer. Default `unknown`. */
  reverifyMode?: 'stateless' | 'unsupported' | 'unknown';
}

/** A defined resources server. */
export interface ResourcesServerDefinition extends ServerDefinition {
  readonly kind: 'resources';
  readonly toolNames: readonly string[];
}

const RESERVED = new Set(['seed_session', 'verify', 'aggregate_metrics', 'reverify_mode', 'v1', 'run', 'mcp', 'ng-rollout']);
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Defines a resources server. Throws `GymHttpInvalidRouteError` for a reserved or malformed tool name.
 * @example
 * const server = defineResourcesServer({
 *   name: 'weather',
 *   tools: { get_weather: { input: z.object({ city: z.string() }), handler: ({ city }) => ({ city, weather_description: 'cold' }) } },
 *   verify: { handler: () => ({ reward: 1 }) },
 * });
 * const app = server.build();
 */
export function defineResourcesServer<T extends Record<string, z.ZodType>, V extends z.ZodType = typeof VERIFY_REQUEST>(spec: ResourcesServerSpec<T, V>): ResourcesServerDefinition {
  const toolNames = Object.keys(spec.tools);
  for (const tool of toolNames) {
    if (!TOOL_NAME.test(tool) || RESERVED.has(tool)) {
      throw new GymHttpInvalidRouteError(`Tool name "${tool}" of resources server "${spec.name}" cannot be a route: use 1-64 letters, digits, "_" or "-", and none of ${[...RESERVED].join(', ')}.`);
    }
  }
  const serverClass = 'SimpleResourcesServer';
  const build = (options: BuildOptions = {}) => {
    const app = createServerApp({ serverClass, ...options, name: options.name ?? spec.name });
    for (const tool of toolNames) {
      const { input, handler } = spec.tools[tool] as { input: z.ZodType; handler: EndpointSpec<z.ZodType>['handler'] };
      addJsonRoute(app, { method: 'POST', path: `/${tool}`, input, handler });
    }
    const seed = spec.seedSession;
    addJsonRoute(app, { method: 'POST', path: '/seed_session', input: seed?.input ?? SEED_SESSION_REQUEST, handler: seed?.handler ?? (() => ({})) });
    const verify = spec.verify;
    addJsonRoute(app, {
      method: 'POST',
      path: '/verify',
      input: verify.input ?? VERIFY_REQUEST,
      // a synchronous verify is answered synchronously (no promise on the route's path)
      handler: (body, context) => {
        const result = verify.handler(body as z.output<V>, context);
        return isThenable(result) ? Promise.resolve(result).then((value) => ({ ...(body as object), ...value })) : { ...(body as object), ...result };
      },
      endpoint: 'verify',
    });
    addAggregateMetricsRoute(app, spec.aggregateMetrics, metricsHooks(spec));
    const reverifyMode = spec.reverifyMode ?? 'unknown';
    addJsonRoute(app, { method: 'GET', path: '/reverify_mode', handler: () => reverifyMode });
    return app;
  };
  const routes = [...toolNames.map((t) => `/${t}`), '/seed_session', '/verify', '/aggregate_metrics'];
  return { kind: 'resources', name: spec.name, serverClass, routes, toolNames, build };
}

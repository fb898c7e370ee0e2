/**
 * `createServerApp()`: the shared ingress of every gym server (fastify 5). Liveness, JSON body
 * limits, depth-limited JSON parsing, the original's error shapes, signed session cookies, the `/ng-rollout/<id>` prefix and
 * the instrumentation seam. Behaviour: `docs/http.md` ("Server ingress").
 * @module
 */
import Fastify, { LogController } from 'fastify';
import { SERVER_TOKEN_HEADER } from '../server-process/server-identity.js';
import { installErrorHandling, sendJson } from './error-reply.js';
import { createHostCheck } from './host-check.js';
import type { AllowedHosts } from './host-check.js';
import { parseJsonBody } from './json-body.js';
import { lazyChildLogger } from './lazy-child-logger.js';
import { ROLLOUT_ID, stripRolloutPrefix } from './rollout-prefix.js';
import { createSessionConfig } from './session.js';
import { createHttpClient } from '../http/client.js';
import { routeHookOptions } from './route-hooks.js';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { HttpClient } from '../http/types.js';
import type { ServerInstrumentation } from './instrumentation.js';
import type { RawRequestWithRollout } from './rollout-prefix.js';
import type { GymSession, SessionConfig } from './session.js';

/** Default request body limit: rollouts carry long conversations. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024 * 1024;
/** Server keep-alive: above the client's 15 s, so the client always closes an idle socket first. */
export const DEFAULT_SERVER_KEEP_ALIVE_TIMEOUT_MS = 30_000;

/** Options of {@link createServerApp}. */
export interface ServerAppOptions {
  /** Server instance name, e.g. `example_single_tool_call`. */
  name: string;
  /** Class-like label used in cookie names and 500 bodies. Default `SimpleServer`. */
  serverClass?: string;
  /** HMAC secret of the session cookie. Default: 32 random bytes per process. */
  sessionSecret?: string;
  /** Session cookie name. Default `<serverClass>___<name>`, as the original. */
  sessionCookieName?: string;
  /** Largest accepted request body. Default {@link DEFAULT_BODY_LIMIT_BYTES}. */
  bodyLimitBytes?: number;
  /** Idle keep-alive of server sockets. Default {@link DEFAULT_SERVER_KEEP_ALIVE_TIMEOUT_MS}. */
  keepAliveTimeoutMs?: number;
  /** pino-compatible logger. Default: silent. */
  logger?: FastifyBaseLogger;
  /** Log every request (the original's access log). Default false. */
  logRequests?: boolean;
  /** Telemetry seam; when absent no hook is registered. */
  instrumentation?: ServerInstrumentation;
  /**
   * The process's HTTP client: each handler gets it as `route.http`, bound to its request's trace
   * scope. Default: a plain client the app makes when first needed and closes with the app.
   */
  http?: HttpClient;
  /** Echoed in the `x-gym-server-token` header of `GET /`: the orchestrator's proof that it reaches the server it started. */
  identityToken?: string;
  /**
   * `Host` names answered besides loopback names, IP literals and this machine's name (the
   * instance's configured `host` and `allowed_hosts`); `true` answers any. Default `[]`.
   */
  allowedHosts?: AllowedHosts;
}

/** Per-app state the route helpers read. */
export interface GymServerState {
  name: string;
  /** `<serverClass>___<name>`. */
  label: string;
  session: SessionConfig;
  instrumentation: ServerInstrumentation | undefined;
  /** The client handlers get (bound to their request's scope). */
  readonly http: HttpClient;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** gym's per-app state. */
    gym: GymServerState;
  }
  interface FastifyRequest {
    /** Set on gym routes (see `addJsonRoute`). */
    session: GymSession;
    /** The id from an `/ng-rollout/<id>/…` URL, else null. */
    readonly gymRolloutId: string | null;
    /** The telemetry layer's slot for this request (its span and context); opaque here. */
    gymTrace: unknown;
  }
}

/**
 * Builds a fastify app with gym's ingress and `GET /` → `{"status":"ok"}`. Add routes with
 * `addJsonRoute`; start it with `listen`. `app.inject` works without listening.
 * @example
 * const app = createServerApp({ name: 'my_server' });
 * addJsonRoute(app, { method: 'POST', path: '/echo', handler: (body) => body });
 * await listen(app, { port: 8000 });
 */
export function createServerApp(options: ServerAppOptions): FastifyInstance {
  const serverClass = options.serverClass ?? 'SimpleServer';
  const label = `${serverClass}___${options.name}`;
  const bodyLimit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  const app = Fastify({
    ...(options.logger === undefined ? { logger: false } : { loggerInstance: options.logger }),
    logController: new LogController({ disableRequestLogging: options.logRequests !== true }),
    bodyLimit,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? DEFAULT_SERVER_KEEP_ALIVE_TIMEOUT_MS,
    rewriteUrl: (req) => stripRolloutPrefix(req as RawRequestWithRollout),
    // a request's child logger is made when it first logs, not for every request
    ...(options.logger === undefined ? {} : { childLoggerFactory: lazyChildLogger }),
  }) as unknown as FastifyInstance;

  const instrumentation = options.instrumentation;
  let http = options.http;
  const state: GymServerState = {
    name: options.name,
    label,
    session: createSessionConfig(options.sessionCookieName ?? label, options.sessionSecret),
    instrumentation,
    get http() {
      http ??= ownHttp = createHttpClient();
      return http;
    },
  };
  // a client the app made for itself closes with it
  let ownHttp: HttpClient | undefined;
  app.addHook('onClose', async () => ownHttp?.close());
  app.decorate('gym', { getter: () => state });
  app.decorateRequest('session', null as unknown as GymSession);
  // declared once, so a request's telemetry never changes its object's shape
  app.decorateRequest('gymTrace', null);
  app.decorateRequest('gymRolloutId', {
    getter(this: { raw: RawRequestWithRollout }) {
      return this.raw[ROLLOUT_ID] ?? null;
    },
  });
  // with route-level instrumentation, the not-found handler carries the hooks a route would
  const perRoute = instrumentation?.forRoute !== undefined;
  installErrorHandling(app, label, bodyLimit, perRoute ? routeHookOptions(instrumentation.forRoute?.({ method: undefined, path: undefined })) : {});
  // first of all hooks: a request for a foreign Host name is refused before anything else runs
  const hostAllowed = createHostCheck(options.allowedHosts ?? []);
  app.addHook('onRequest', (request, reply, done) => {
    const host = request.headers.host;
    if (hostAllowed(host)) return done();
    request.log.warn({ host }, 'refused a request for a foreign Host name');
    void sendJson(reply.code(403), {
      detail: `Host '${String(host).slice(0, 100)}' is not a name this server answers to (DNS-rebinding protection). Use its IP address, or add the name to 'allowed_hosts' in the server's config block.`,
    });
  });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  if (!perRoute && instrumentation?.onRequest !== undefined) {
    const onRequest = instrumentation.onRequest.bind(instrumentation);
    app.addHook('onRequest', (request, reply, done) => {
      try {
        onRequest(request, reply);
      } catch (err) {
        request.log.warn({ err }, 'server instrumentation onRequest failed');
      }
      done();
    });
  }
  if (!perRoute && instrumentation?.onSend !== undefined) {
    const onSend = instrumentation.onSend.bind(instrumentation);
    app.addHook('onSend', (request, reply, payload, done) => {
      try {
        onSend(request, reply);
      } catch (err) {
        request.log.warn({ err }, 'server instrumentation onSend failed');
      }
      done(null, payload);
    });
  }
  if (!perRoute && instrumentation?.onResponse !== undefined) {
    const onResponse = instrumentation.onResponse.bind(instrumentation);
    app.addHook('onResponse', (request, reply, done) => {
      try {
        onResponse(request, reply, reply.elapsedTime);
      } catch (err) {
        request.log.warn({ err }, 'server instrumentation onResponse failed');
      }
      done();
    });
  }
  const identityToken = options.identityToken;
  app.get('/', (_request, reply) => {
    if (identityToken !== undefined) reply.header(SERVER_TOKEN_HEADER, identityToken);
    return sendJson(reply, { status: 'ok' });
  });
  return app;
}

/**
 * With `async_context: explicit` (the default) a request's trace scope reaches code after an
 * `await` only when that code passes it on (`scope: route.scope`). A call or `gymSpan` that forgot
 * to starts a trace of its own, silently splitting the rollout: this says so, once per process,
 * when it happens while the server is serving requests — the moment it is almost surely a mistake.
 * @module
 */
import { GYM_TELEMETRY_WARNINGS, gymWarn } from './warn.js';
import type { GymTelemetry } from './state.js';

let warned = false;

/**
 * Warns once if a span (`name`) or a call (`name` = its method, and `url`) starts with no parent
 * while this server has requests in flight. Its text is made only when it is given: the collector's
 * calls all start without a parent.
 */
export function warnIfDetached(telemetry: GymTelemetry, kind: 'span' | 'call', name: string, url?: string): void {
  if (warned || telemetry.serverRequests.inFlight === 0 || telemetry.settings.asyncContext !== 'explicit') return;
  warned = true;
  const what = kind === 'span' ? `The span '${name}'` : `The call to ${name} ${url ?? ''}`;
  gymWarn(
    GYM_TELEMETRY_WARNINGS.DETACHED_SCOPE,
    `${what} started outside any request's trace scope while ${telemetry.serverName} was serving requests, so it begins a trace of its own. ` +
      'After an `await`, pass the scope on: `{ scope: route.scope }` to context.http calls and gymSpan (docs/observability/extending.md), ' +
      "or set NEMO_GYM_OTEL_ASYNC_CONTEXT=implicit to carry it through every promise (costs about a tenth of a busy server's CPU on Node 20).",
  );
}

/**
 * The names gym emits come from the naming contract `@gym/names`, shared with `gym trace` (which
 * reads them back); this module re-exports them for the runtime and adds what only the writer needs.
 * @module
 */

export { ATTR, METRIC, SPAN, SPAN_EVENT, GYM_SCOPE, UNIT } from '@gym/names';

// Bucket boundaries are the original's, so dashboards built on its metrics (Prometheus `le` labels
// included) read ours. The `gym.*` durations it declares without buckets get the SDK's defaults.

/** `http.server.request.duration`: the semantic conventions' advice, as the original's instrumentor. */
export const HTTP_DURATION_S_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** `gym.server.startup_duration_ms`: a start can take an hour on a cold cluster. */
export const STARTUP_MS_BUCKETS = [100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000, 120000, 300000, 600000, 1800000, 3600000];

/** The response header that carries a request's trace (W3C Trace Context Level 2 `traceresponse`). */
export const TRACE_RESPONSE_HEADER = 'traceresponse';

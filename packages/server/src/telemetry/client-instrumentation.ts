/**
 * The CLIENT side of every cross-process call: one span `HTTP <METHOD>` per logical request
 * (retries inside it, as `gym.http.retry` events), `traceparent` and the rollout id injected, and
 * the request's phases in the caller (queued, connect, sent, answered, done) as attributes.
 * Plugged into the one HTTP client; with `http_client` off it adds one field read per request.
 * @module
 */
import type { Attributes, Span } from '@opentelemetry/api';
import type { HttpResponse } from '../http/types.js';
import type { InstrumentedRequest, RequestInstrumentation, RetryEvent } from '../http/instrumentation.js';
import { ATTR, SPAN_EVENT } from './attributes.js';
import { ClientPhaseRecorder, setPhaseAttributes } from './client-phases.js';
import type { AnswerTimes } from './client-phases.js';
import { warnIfDetached } from './detached-scope.js';
import { GATES } from './gates.js';
import { rolloutBaggage, rolloutIdIn } from './rollout-context.js';
import { addRunId, linkToJob, rolloutRootIn } from './rollout-root.js';
import { contextOf } from './trace-scope.js';
import type { GymTelemetry } from './state.js';

const HTTP_CLIENT = GATES.http_client;
const SPAN_KIND_CLIENT = 2; // SpanKind.CLIENT, without loading the API's enum on this path

function retryReason(event: RetryEvent): string {
  if (event.reason === 'status') return `http_${event.status}`;
  const code = (event.error as { code?: string } | undefined)?.code ?? '';
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_CLOSED') return 'server_disconnected';
  if (code.includes('TIMEOUT')) return 'timeout';
  return code.startsWith('E') ? 'client_os_error' : 'other';
}

/** Sets the phases `phases` followed for `span` (when recording), with the answer's times. */
function endPhases(phases: ClientPhaseRecorder, span: Span, spanId: string, recording: boolean, answer: AnswerTimes | undefined): void {
  const seen = recording ? phases.finish(spanId) : undefined;
  if (seen !== undefined) setPhaseAttributes(span, seen, answer);
}

/** The client instrumentation of `telemetry`. */
export function createClientInstrumentation(telemetry: GymTelemetry): RequestInstrumentation {
  const { api, lens, lean, instruments } = telemetry;
  const phases = new ClientPhaseRecorder();
  const retryCounters = new Map<string, Attributes>();

  const onRetry = (span: Span, event: RetryEvent): void => {
    const reason = retryReason(event);
    let attributes = retryCounters.get(reason);
    if (attributes === undefined) retryCounters.set(reason, (attributes = { [ATTR.RETRY_REASON]: reason }));
    instruments.httpRetryTotal.add(1, attributes);
    span.addEvent(SPAN_EVENT.HTTP_RETRY, { attempt: event.attempt, reason, 'retry.delay_ms': event.delayMs });
    span.setAttribute(ATTR.RESEND_COUNT, event.attempt);
  };

  return {
    // the gate, read by the client before it describes the request
    get enabled() {
      return HTTP_CLIENT.enabled;
    },
    wrap(request: InstrumentedRequest, send) {
      const active = contextOf(telemetry, request.scope);
      const scoped = api.trace.getSpanContext(active);
      // the collector's calls: a rollout's starts a trace of its own, linked to the job; a call of
      // no rollout (the run's /aggregate_metrics) stays in the job's trace
      const collector = scoped === undefined ? rolloutRootIn(active) : undefined;
      const parent = collector !== undefined && request.rolloutId === undefined ? collector.job : scoped;
      const root = parent === undefined ? collector : undefined;
      if (parent === undefined && collector === undefined) warnIfDetached(telemetry, 'call', request.method, request.url);
      const rolloutId = rolloutIdIn(telemetry, active) ?? request.rolloutId;
      const attributes: Attributes = { [ATTR.HTTP_METHOD]: request.method, [ATTR.URL_FULL]: request.url, [ATTR.SERVER_ADDRESS]: request.host, [ATTR.SERVER_PORT]: request.port };
      if (rolloutId !== undefined) attributes[ATTR.ROLLOUT_ID] = rolloutId;
      if (root !== undefined) addRunId(telemetry, attributes);
      const startedAt = performance.now();
      const span = lean.startSpan(`HTTP ${request.method}`, SPAN_KIND_CLIENT, parent, attributes, lens.hrTimeAt(startedAt));
      if (root !== undefined) linkToJob(span, root);
      const context = span.spanContext();
      const headers: Record<string, string> = request.traceparent === false ? {} : { traceparent: lens.formatTraceparent(context) };
      // the rollout id travels between gym servers only (unless configured); a model provider gets the trace context alone
      if (rolloutId !== undefined && (request.baggage ?? request.external !== true)) headers['baggage'] = rolloutBaggage(rolloutId);
      const recording = span.isRecording();
      if (recording) phases.start(context.spanId, startedAt);
      // (no named closure per call: under tsx each also costs a `defineProperty` of its name)
      return send(headers, (event) => onRetry(span, event)).then(
        (response: HttpResponse) => {
          endPhases(phases, span, context.spanId, recording, response);
          span.setAttribute(ATTR.HTTP_STATUS, response.status);
          if (response.status >= 400) span.setStatus({ code: api.SpanStatusCode.ERROR, message: `HTTP ${response.status}` });
          span.end();
          response.traceId = context.traceId;
          return response;
        },
        (error: unknown) => {
          // an error status still carries the answer's times
          endPhases(phases, span, context.spanId, recording, error as AnswerTimes);
          const status = (error as { status?: number }).status;
          if (typeof status === 'number') span.setAttribute(ATTR.HTTP_STATUS, status);
          span.setAttribute(ATTR.ERROR_TYPE, (error as { code?: string }).code ?? (error as Error).name ?? 'Error');
          lens.recordSpanError(span, error);
          span.end();
          // the caller (the collector) writes the trace id into its failure row
          if (error !== null && typeof error === 'object') (error as { traceId?: string }).traceId = context.traceId;
          throw error;
        },
      );
    },
  };
}

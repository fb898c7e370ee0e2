/**
 * The CLIENT side of every cross-process call: one span `HTTP <METHOD>` per logical request
 * (retries inside it), `traceparent` and baggage injected inside the span, retries counted.
 * Plugged into the one HTTP client; with `http_client` off it adds one field read per request.
 * @module
 */
import type { Attributes } from '@opentelemetry/api';
import type { HttpResponse } from '../http/types.js';
import type { InstrumentedRequest, RequestInstrumentation, RetryEvent } from '../http/instrumentation.js';
import { ATTR, TRACE_RESPONSE_HEADER } from './attributes.js';
import { GATES } from './gates.js';
import { rolloutIdIn } from './rollout-context.js';
import type { GymTelemetry } from './state.js';

const HTTP_CLIENT = GATES.http_client;

function retryReason(event: RetryEvent): string {
  if (event.reason === 'status') return `http_${event.status}`;
  const code = (event.error as { code?: string } | undefined)?.code ?? '';
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'UND_ERR_CLOSED') return 'server_disconnected';
  if (code.includes('TIMEOUT')) return 'timeout';
  return code.startsWith('E') ? 'client_os_error' : 'other';
}

/** The client instrumentation of `telemetry`. */
export function createClientInstrumentation(telemetry: GymTelemetry): RequestInstrumentation {
  const { api, lens, tracer, instruments } = telemetry;
  return {
    wrap(request: InstrumentedRequest, send) {
      if (!HTTP_CLIENT.enabled) return send();
      const parent = api.context.active();
      const url = new URL(request.url);
      const attributes: Attributes = { [ATTR.HTTP_METHOD]: request.method, [ATTR.URL_FULL]: request.url, [ATTR.SERVER_ADDRESS]: url.hostname, [ATTR.SERVER_PORT]: Number(url.port || 80) };
      const rolloutId = rolloutIdIn(telemetry, parent);
      if (rolloutId !== undefined) attributes[ATTR.ROLLOUT_ID] = rolloutId;
      const span = tracer.startSpan(`HTTP ${request.method}`, { kind: api.SpanKind.CLIENT, attributes }, parent);
      const ctx = api.trace.setSpan(parent, span);
      const headers: Record<string, string> = {};
      lens.injectContext(headers, ctx);
      return api.context.with(ctx, () => send(headers)).then(
        (response: HttpResponse) => {
          span.setAttribute(ATTR.HTTP_STATUS, response.status);
          // a server tells only callers without trace context which trace they started; this caller
          // knows, so it answers for it and readers of the header (the collector) see the trace
          if (response.headers[TRACE_RESPONSE_HEADER] === undefined) {
            const { traceId, spanId } = span.spanContext();
            response.headers[TRACE_RESPONSE_HEADER] = `00-${traceId}-${spanId}-01`;
          }
          if (response.status >= 400) span.setStatus({ code: api.SpanStatusCode.ERROR, message: `HTTP ${response.status}` });
          span.end();
          return response;
        },
        (error: unknown) => {
          const status = (error as { status?: number }).status;
          if (typeof status === 'number') span.setAttribute(ATTR.HTTP_STATUS, status);
          span.setAttribute(ATTR.ERROR_TYPE, (error as { code?: string }).code ?? (error as Error).name ?? 'Error');
          lens.recordSpanError(span, error);
          span.end();
          throw error;
        },
      );
    },
    onRetry(_request, event) {
      if (!HTTP_CLIENT.enabled) return;
      const reason = retryReason(event);
      instruments.httpRetryTotal.add(1, { [ATTR.RETRY_REASON]: reason });
      const span = api.trace.getActiveSpan();
      span?.addEvent('gym.http.retry', { attempt: event.attempt, reason, 'retry.delay_ms': event.delayMs });
      span?.setAttribute(ATTR.RESEND_COUNT, event.attempt);
    },
  };
}

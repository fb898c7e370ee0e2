/**
 * Model-call capture on a model server: every call that came in through `/ng-rollout/<id>/…` is
 * recorded, after it finished, as one line of `<capture dir>/<id>.capture.jsonl` (request, response
 * or error, timing, status, and the trace/span ids when telemetry is on). The call id is minted
 * before the handler runs and sent back in `x-ng-model-call-id`, so the agent can name the exact
 * call it made. The line is durable before the answer is sent, so whoever got the answer can read
 * it. Unprefixed calls pass straight through; a capture that cannot be written is logged and never
 * fails the model request.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { activeTelemetry } from '../telemetry/state.js';
import { CaptureStore, isCaptureRolloutId } from './capture-store.js';
import { scrubCaptureSecrets } from './scrub.js';
import type { RouteHandler } from '../server/json-route.js';
import type { TraceScope } from '../http/instrumentation.js';
import { contextOf } from '../telemetry/trace-scope.js';

/** The response header that names the captured call. */
export const MODEL_CALL_ID_HEADER = 'x-ng-model-call-id';

/** The API shape of a model route. */
export type ModelDialect = 'responses' | 'chat_completions';

/** Wraps model route handlers with capture; built once per process when evidence is on. */
export interface ModelCallCapture {
  readonly store: CaptureStore;
  wrap<In, Out>(dialect: ModelDialect, handler: RouteHandler<In, Out>): RouteHandler<In, Out>;
}

/** Options of {@link createModelCallCapture}. */
export interface ModelCallCaptureOptions {
  captureDir: string;
  /** The model server's instance name (`model_ref.name`). */
  serverName: string;
  /** Where a failed write is reported. */
  onError?: (error: unknown, rolloutId: string) => void;
}

/** Builds the capture wrapper of one model server. */
export function createModelCallCapture(options: ModelCallCaptureOptions): ModelCallCapture {
  const store = new CaptureStore(options.captureDir);
  const modelRef = { type: 'responses_api_models', name: options.serverName };
  const onError = options.onError ?? (() => undefined);
  return {
    store,
    wrap(dialect, handler) {
      return async (body, context) => {
        const rolloutId = context.rolloutId;
        if (rolloutId === null || !isCaptureRolloutId(rolloutId)) return handler(body, context);
        const modelCallId = randomBytes(16).toString('hex');
        context.reply.header(MODEL_CALL_ID_HEADER, modelCallId);
        const ids = traceIds(context.scope);
        const startedAt = Date.now();
        const started = performance.now();
        // awaited before the answer leaves: once the agent has the response, the collector can read the line
        const write = async (statusCode: number, response: unknown, errorCategory: string | null): Promise<void> => {
          const line: Record<string, unknown> = {
            model_call_id: modelCallId,
            rollout_id: rolloutId,
            dialect,
            model_ref: modelRef,
            started_at: startedAt / 1000,
            completed_at: Date.now() / 1000,
            latency_ms: performance.now() - started,
            latency_ttft_ms: null,
            status_code: statusCode,
            error_category: errorCategory,
            request: scrubCaptureSecrets(body),
            response: scrubCaptureSecrets(response),
            ...ids,
          };
          try {
            await store.append(rolloutId, line);
          } catch (error) {
            onError(error, rolloutId);
          }
        };
        let result;
        try {
          result = await handler(body, context);
        } catch (error) {
          const status = statusOf(error);
          await write(
            status,
            { error: { message: error instanceof Error ? error.message : String(error), code: (error as { code?: unknown } | null)?.code ?? null } },
            status < 500 ? 'client_error' : 'server_error',
          );
          throw error;
        }
        await write(200, result, null);
        return result;
      };
    },
  };
}

/** The trace and span ids of the span of `scope` (else the active one), when telemetry is on. */
function traceIds(scope: TraceScope | undefined): { trace_id?: string; span_id?: string } {
  const telemetry = activeTelemetry();
  if (telemetry === undefined) return {};
  const span = telemetry.api.trace.getSpan(contextOf(telemetry, scope));
  if (span === undefined) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/** The HTTP status the ingress answers for `error` (a 4xx it carries, else 500). */
function statusOf(error: unknown): number {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
}

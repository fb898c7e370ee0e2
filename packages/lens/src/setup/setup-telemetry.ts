/**
 * `setupTelemetry`: the one entry point that turns telemetry on (or pins it off) for a process.
 * @module
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import { setEnabledSpanGroups, setSpanGroupSpec } from '../span-groups.js';
import { DEFAULT_SCOPE } from '../tracer.js';
import { lensWarn, LENS_WARNINGS } from '../warnings.js';
import type { NemoLensConfig } from './config.js';
import { readEnv } from './env.js';
import type { Env } from './env.js';
import { LensSetupError, LENS_ERRORS } from './errors.js';
import type { Pipeline } from './providers.js';
import { resolveResourceAttributes } from './resources/detect.js';
import { LossTally } from './loss-tally.js';
import { ensureRunId } from './run-id.js';
import type { SetupTelemetryOptions, TelemetryHandle } from './types.js';

interface SetupState {
  initialised: boolean;
  /** Whether lens registered globals in this process (so a re-init or disabled re-setup clears them). */
  registered: boolean;
}

// On globalThis so two copies of lens in one process (source and dist) still share one guard.
const STATE_KEY = Symbol.for('@gym/lens.setup-state');
const globals = globalThis as { [STATE_KEY]?: SetupState };
const state: SetupState = (globals[STATE_KEY] ??= { initialised: false, registered: false });

/**
 * Sets telemetry up for this process. Enabled: builds tracer, meter and (when `logsEnabled`) logger
 * providers with the configured exporter, registers them globally with the async-local context
 * manager and the W3C propagators, and applies `config.spanGroups`. Disabled (or
 * `OTEL_SDK_DISABLED=true`): loads no SDK, installs nothing, pins the enabled span groups empty.
 * Fills `config.runId` when empty.
 * @throws LensSetupError `LENS_SETUP_ALREADY_INITIALISED` when an enabled setup already ran and
 *   `allowReinit` is not set; LensConfigError for an unknown exporter or OTLP protocol.
 * @example
 * const handle = await setupTelemetry(NemoLensConfig.fromEnv('NEMO_GYM_OTEL', 'NEMO_LENS'));
 * process.once('SIGTERM', () => void handle.shutdown());
 */
export async function setupTelemetry(config: NemoLensConfig, options: SetupTelemetryOptions = {}): Promise<TelemetryHandle> {
  const env: Env = options.env ?? process.env;
  let enabled = config.enabled;
  if (enabled && isSdkDisabled(env)) {
    lensWarn(LENS_WARNINGS.SETUP_DEGRADED, 'OTEL_SDK_DISABLED=true: telemetry stays off although it was enabled.');
    enabled = false;
  }
  if (enabled && state.initialised && !options.allowReinit) {
    throw new LensSetupError(
      LENS_ERRORS.SETUP_ALREADY_INITIALISED,
      'setupTelemetry() has already been initialised for this process. Call it once and share the handle; ' + 'pass { allowReinit: true } only in tests.',
    );
  }
  ensureRunId(config, env);
  if (!enabled) {
    if (options.allowReinit && state.registered) await clearGlobals();
    setEnabledSpanGroups([]);
    return disabledHandle();
  }
  const attributes = await resolveResourceAttributes({
    config,
    env,
    resourceAttributes: options.resourceAttributes,
    resourceAttributeDefaults: options.resourceAttributeDefaults,
    detect: options.detect,
  });
  const { buildProviders } = await import('./providers.js');
  const pipeline = await buildProviders(config, env, attributes, options);
  state.registered = true;
  setSpanGroupSpec(config.spanGroups);
  state.initialised = true;
  return enabledHandle(pipeline, attributes);
}

function enabledHandle(pipeline: Pipeline, attributes: Attributes): TelemetryHandle {
  let shutdown: Promise<void> | undefined;
  return {
    tracer: trace.getTracer(DEFAULT_SCOPE),
    meter: metrics.getMeter(DEFAULT_SCOPE),
    isExporting: true,
    resourceAttributes: Object.freeze({ ...attributes }),
    shutdown: (timeoutMs = 5000) => (shutdown ??= pipeline.shutdown(timeoutMs).catch(() => undefined)),
    forceFlush: (timeoutMs = 5000) => (shutdown ?? pipeline.forceFlush(timeoutMs)).catch(() => undefined),
    droppedSpans: () => pipeline.droppedSpans(),
    losses: () => pipeline.losses(),
  };
}

function disabledHandle(): TelemetryHandle {
  const done = Promise.resolve();
  return {
    tracer: trace.getTracer(DEFAULT_SCOPE),
    meter: metrics.getMeter(DEFAULT_SCOPE),
    isExporting: false,
    resourceAttributes: Object.freeze({}),
    shutdown: () => done,
    forceFlush: () => done,
    droppedSpans: () => 0,
    losses: () => new LossTally().losses(),
  };
}

function isSdkDisabled(env: Env): boolean {
  return readEnv(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true';
}

async function clearGlobals(): Promise<void> {
  trace.disable();
  context.disable();
  propagation.disable();
  metrics.disable();
  // only reached after lens registered a logger provider's API before, so the import is warm
  (await import('@opentelemetry/api-logs')).logs.disable();
  const { setLogSink } = await import('./log-sink.js');
  setLogSink(undefined);
  state.registered = false;
}

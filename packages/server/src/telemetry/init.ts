/**
 * `initTelemetry()`: the one place a gym process turns telemetry on. Runs the env pre-check first
 * and loads nothing when it says off; loads @gym/lens (and through it the SDK) only when on, and
 * runs unchanged when lens is not installed. Never throws: any failure is one warning and the
 * process serves without telemetry.
 * @module
 */
import { readFileSync } from 'node:fs';
import { processSecretScrubber } from '../config/secret-scrub.js';
import { bindGates, GYM_NAMESPACE, GYM_PRESETS, GYM_SPAN_GROUPS } from './gates.js';
import { ATTR, GYM_SCOPE } from './attributes.js';
import { createInstruments } from './instruments.js';
import { activeTelemetry, setActiveTelemetry } from './state.js';
import type { GymTelemetry } from './state.js';
import type { TelemetrySettings } from './settings.js';
import { GYM_TELEMETRY_WARNINGS, gymWarn } from './warn.js';

/** Options of {@link initTelemetry}. */
export interface InitTelemetryOptions {
  /** The process's resolved settings (settings.ts); nothing else is read to decide. */
  settings: TelemetrySettings;
  /** Server instance name, e.g. `policy_model`; `orchestrator` / `collector` for the CLI. */
  serverName: string;
  /** `resources_servers`, `responses_api_models`, `responses_api_agents`, `orchestrator`, … */
  serverType: string;
  env?: NodeJS.ProcessEnv;
  /** Where console telemetry goes (default stdout). */
  output?: NodeJS.WritableStream;
}

const GYM_VERSION = (() => {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
})();

let pending: Promise<GymTelemetry | undefined> | undefined;

/** Sets telemetry up once per process and returns it, or `undefined` when off or unavailable. */
export function initTelemetry(options: InitTelemetryOptions): Promise<GymTelemetry | undefined> {
  pending ??= setUp(options).catch((error: unknown) => {
    gymWarn(GYM_TELEMETRY_WARNINGS.SETUP_FAILED, `telemetry setup failed; continuing without it: ${(error as Error)?.message ?? String(error)}`);
    return undefined;
  });
  return pending;
}

async function setUp(options: InitTelemetryOptions): Promise<GymTelemetry | undefined> {
  const { settings } = options;
  if (!settings.enabled) return undefined;
  const env = options.env ?? process.env;
  let lens: typeof import('@gym/lens');
  let setup: typeof import('@gym/lens/setup');
  let api: typeof import('@opentelemetry/api');
  try {
    lens = await import('@gym/lens');
    setup = await import('@gym/lens/setup');
    api = await import('@opentelemetry/api');
  } catch (error) {
    gymWarn(GYM_TELEMETRY_WARNINGS.LENS_MISSING, `telemetry is enabled but @gym/lens is not installed (${(error as Error).message}); running without telemetry. Install @gym/lens to get traces.`);
    return undefined;
  }
  const serviceGroup = settings.serviceGroup;
  const config = new setup.NemoLensConfig({
    enabled: true,
    serviceName: settings.serviceNamePerServer ? `${serviceGroup}/${options.serverName}` : serviceGroup,
    tracesEnabled: settings.tracesEnabled,
    metricsEnabled: settings.metricsEnabled,
    logsEnabled: settings.logsEnabled,
    spanGroups: settings.spanGroups,
    exporter: settings.exporter,
    runId: settings.runId ?? '',
    user: settings.user,
    wandbEntity: settings.wandbEntity,
    wandbProject: settings.wandbProject,
  });
  lens.SpanRegistry.register(GYM_NAMESPACE, { groups: GYM_SPAN_GROUPS, presets: GYM_PRESETS }, { allowOverride: true });

  let handle: Awaited<ReturnType<typeof setup.setupTelemetry>> | undefined;
  try {
    handle = await setup.setupTelemetry(config, {
      env,
      metricExportIntervalMs: settings.metricExportIntervalMs,
      asyncContext: settings.asyncContext,
      // gym's own spans: their console lines leave the scope to the resource record
      ownScope: { name: GYM_SCOPE, version: GYM_VERSION },
      ...(options.output === undefined ? {} : { output: options.output }),
      resourceAttributes: {
        [ATTR.SERVICE_GROUP]: serviceGroup,
        [ATTR.SERVER_NAME]: options.serverName,
        [ATTR.SERVER_TYPE]: options.serverType,
        [ATTR.GYM_VERSION]: GYM_VERSION,
        'nv.dl.rank': 0,
        'nv.dl.world_size': 1,
      },
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'LENS_SETUP_ALREADY_INITIALISED') throw error;
    // an embedder (a trainer running gym in-process) owns the providers and the span-group spec
    gymWarn(GYM_TELEMETRY_WARNINGS.REUSED_PROVIDERS, 'telemetry was already set up in this process by another library; gym reuses its providers and span groups and will not shut them down');
  }
  const unbindGates = bindGates(lens.bindSpanGroupGate);
  // exception, status and log text is scrubbed of the process's configured secrets (none: no cost)
  lens.setStringScrubber(processSecretScrubber());
  // process saturation metrics (runtime-metrics.ts), loaded only here: a process without telemetry never loads them
  const isExportingMetrics = handle?.isExporting === true && settings.metricsEnabled;
  const runtimeMetrics = isExportingMetrics ? (await import('./runtime-metrics.js')).startRuntimeMetrics(lens.getMeter(GYM_SCOPE, GYM_VERSION)) : undefined;
  const telemetry: GymTelemetry = {
    lens,
    api,
    tracer: lens.getTracer(GYM_SCOPE, GYM_VERSION),
    lean: lens.getLeanTracer(GYM_SCOPE, GYM_VERSION),
    rolloutKey: api.createContextKey(ATTR.ROLLOUT_ID),
    instruments: createInstruments(lens.getMeter(GYM_SCOPE, GYM_VERSION), {
      histogram: (name, options) => lens.getLeanHistogram(GYM_SCOPE, GYM_VERSION, name, options),
      counter: (name, options) => lens.getLeanCounter(GYM_SCOPE, GYM_VERSION, name, options),
    }),
    serverName: options.serverName,
    runId: config.runId,
    loggerOptions: setup.lensPinoOptions(),
    settings,
    serverRequests: { inFlight: 0 },
    isExportingMetrics,
    shutdown: async (timeoutMs = 5000) => {
      if (activeTelemetry() === telemetry) setActiveTelemetry(undefined);
      unbindGates();
      await handle?.shutdown(timeoutMs);
      runtimeMetrics?.stop(); // after the final collection, which still reads them
    },
    losses: () => handle?.losses(),
  };
  setActiveTelemetry(telemetry);
  return telemetry;
}

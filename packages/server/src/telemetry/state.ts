/**
 * The telemetry of this process, once `initTelemetry` set it up; `undefined` while telemetry is
 * off, before setup, or when lens is not installed. Call sites read it only after a gate said yes.
 * @module
 */
import type { Tracer } from '@opentelemetry/api';
import type { LeanTracer } from '@gym/lens';
import type { LensPinoOptions, TelemetryLosses } from '@gym/lens/setup';
import type { GymInstruments } from './instruments.js';
import type { TelemetrySettings } from './settings.js';

/** What the instrumentation of a process needs, all loaded lazily. */
export interface GymTelemetry {
  /** The two optional modules, loaded by `initTelemetry` only: call sites reach them here, never by import. */
  lens: typeof import('@gym/lens');
  api: typeof import('@opentelemetry/api');
  tracer: Tracer;
  /** gym's per-request spans (SERVER, CLIENT): lean spans parented by span context. */
  lean: LeanTracer;
  /** The context key of the rollout id (see rollout-context.ts). */
  rolloutKey: symbol;
  instruments: GymInstruments;
  /** This process's server instance name (`orchestrator` or `collector` for the CLI). */
  serverName: string;
  /** The run id every process of the run shares. */
  runId: string;
  /** Spread into `pino({...})`: trace ids on every record, and records exported when logs are on. */
  loggerOptions: LensPinoOptions;
  /** The settings this process resolved once. */
  settings: TelemetrySettings;
  /** Requests with a SERVER span this process is serving now (server-instrumentation.ts keeps it). */
  serverRequests: { inFlight: number };
  /** Whether this process's metrics reach an exporter (gym owns the providers, the SDK is not disabled). */
  isExportingMetrics: boolean;
  /** Flushes and shuts down every signal (no-op when another library owns the providers). */
  shutdown(timeoutMs?: number): Promise<void>;
  /** Spans, metric points and log records this process never delivered (final after `shutdown`); `undefined` when another library owns the providers. */
  losses(): TelemetryLosses | undefined;
}

let current: GymTelemetry | undefined;

/** The active telemetry, if any. */
export function activeTelemetry(): GymTelemetry | undefined {
  return current;
}

/** Installs (or with `undefined`, clears) the active telemetry. */
export function setActiveTelemetry(telemetry: GymTelemetry | undefined): void {
  current = telemetry;
}

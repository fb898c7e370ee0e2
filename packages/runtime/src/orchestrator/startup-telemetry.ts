/**
 * The orchestrator's telemetry: `gym.startup` with one `gym.startup.server` per server (spawn →
 * first answered health probe), `gym.server.startup_duration_ms`, and `gym.servers.active`.
 * Every method is a no-op without telemetry.
 * @module
 */
import type { Span } from '@opentelemetry/api';
import { ATTR, SPAN } from '@gym/server/internal/telemetry/attributes.js';
import { GATES } from '@gym/server/internal/telemetry/gates.js';
import type { GymTelemetry } from '@gym/server/internal/telemetry/state.js';

/** Records one environment's startup. */
export interface StartupTelemetry {
  serverSpawned(name: string, type: string): void;
  serverReady(name: string): void;
  /** Ends `gym.startup` and sets `gym.servers.active`. */
  finished(activeServers: number): void;
  /** Sets `gym.servers.active` to 0 (before the final flush). */
  stopped(): void;
}

const NOOP: StartupTelemetry = { serverSpawned: () => undefined, serverReady: () => undefined, finished: () => undefined, stopped: () => undefined };

/** Startup telemetry over `telemetry`, or the no-op. */
export function startupTelemetry(telemetry: GymTelemetry | undefined): StartupTelemetry {
  if (telemetry === undefined) return NOOP;
  const { api, tracer, instruments } = telemetry;
  const root = GATES.startup.enabled ? tracer.startSpan(SPAN.STARTUP, {}, api.ROOT_CONTEXT) : undefined;
  const rootCtx = root === undefined ? api.ROOT_CONTEXT : api.trace.setSpan(api.ROOT_CONTEXT, root);
  const servers = new Map<string, { span: Span | undefined; type: string; started: number }>();
  return {
    serverSpawned(name, type) {
      const span = root === undefined ? undefined : tracer.startSpan(SPAN.STARTUP_SERVER, { attributes: { [ATTR.SERVER_NAME]: name, [ATTR.SERVER_TYPE]: type } }, rootCtx);
      servers.set(name, { span, type, started: performance.now() });
    },
    serverReady(name) {
      const entry = servers.get(name);
      if (entry === undefined) return;
      servers.delete(name);
      entry.span?.end();
      instruments.serverStartupDuration.record(performance.now() - entry.started, { [ATTR.SERVER_NAME]: name, [ATTR.SERVER_TYPE]: entry.type });
    },
    finished(activeServers) {
      root?.end();
      instruments.serversActive.record(activeServers);
    },
    stopped() {
      instruments.serversActive.record(0);
    },
  };
}

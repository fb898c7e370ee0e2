/**
 * The orchestrator's `telemetry.memory_profiling` (docs/observability/metrics.md, "Memory profiling"): once the
 * servers are ready it samples each server's process tree and the host every `interval_seconds`,
 * with one sample at start and a last one before the servers are stopped, and records the
 * original's gauges. RSS and the host are read synchronously (tens of µs per process); PSS, which
 * costs the kernel a walk of each address space, is read off the event loop and recorded when it
 * arrives, one read at a time. Sampling never throws; nothing it starts keeps the process alive.
 * @module
 */
import type { Attributes, Gauge, Meter } from '@opentelemetry/api';
import { ATTR, GYM_SCOPE, METRIC, UNIT } from '@gym/server/internal/telemetry/attributes.js';
import type { GymTelemetry } from '@gym/server/internal/telemetry/state.js';
import { PROC_ROOT, procAvailable, readHostMemory, readTreeMemory, readTreePss } from './proc-memory.js';

/** The original's metric names. */
export const MEMORY_METRIC = {
  SERVER_USAGE: METRIC.SERVER_MEMORY_USAGE,
  SERVER_SAMPLED_PEAK: METRIC.SERVER_MEMORY_SAMPLED_PEAK,
  SERVER_PROCESSES: METRIC.SERVER_PROCESSES,
  HOST_USAGE: METRIC.HOST_MEMORY_USAGE,
  HOST_AVAILABLE: METRIC.HOST_MEMORY_AVAILABLE,
  HOST_TOTAL: METRIC.HOST_MEMORY_TOTAL,
  HOST_SAMPLED_PEAK: METRIC.HOST_MEMORY_SAMPLED_PEAK,
} as const;

/** Attribute keys beside `nemo.gym.server.name` / `.type`. */
export const MEMORY_ATTR = { PID: ATTR.PROCESS_PID, MEMORY_TYPE: ATTR.MEMORY_TYPE } as const;

/** One server to profile: its instance name, server type and root pid. */
export interface ProfiledServer {
  name: string;
  type: string;
  pid: number | undefined;
}

/** Options of {@link startMemorySampler}. */
export interface MemorySamplerOptions {
  meter: Meter;
  servers: readonly ProfiledServer[];
  intervalMs: number;
  /** Default `/proc`. */
  procRoot?: string;
}

/** A running sampler. */
export interface MemorySampler {
  /**
   * Takes one sample: RSS, process counts and the host are recorded before it returns; the promise
   * settles once PSS is recorded too (or, while an earlier PSS read is still running, with that one).
   */
  sample(): Promise<void>;
  /** Records a last sample of RSS and the host, synchronously, and stops. Idempotent. */
  stop(): void;
}

/** A server's tree as one sample found it. */
type SampledTree = { server: ServerState; pids: number[] };

interface ServerState {
  rss: Attributes;
  pss: Attributes;
  tree: Attributes;
  pid: number;
  peakRss: number;
  peakPss: number;
}

/**
 * Starts sampling `servers` and the host: one sample now, then every `intervalMs` (unref'd).
 * @example
 * const sampler = startMemorySampler({ meter, servers: [{ name: 'policy_model', type: 'responses_api_models', pid }], intervalMs: 1000 });
 * sampler.stop(); // before the servers are stopped
 */
export function startMemorySampler(options: MemorySamplerOptions): MemorySampler {
  const { meter } = options;
  const procRoot = options.procRoot ?? PROC_ROOT;
  const gauge = (name: string, unit: string, description: string): Gauge => meter.createGauge(name, { unit, description });
  const usage = gauge(MEMORY_METRIC.SERVER_USAGE, UNIT.BYTES, 'Memory of a server process tree (RSS, or PSS), at the last sample');
  const peak = gauge(MEMORY_METRIC.SERVER_SAMPLED_PEAK, UNIT.BYTES, 'Largest sampled memory of a server process tree');
  const processes = gauge(MEMORY_METRIC.SERVER_PROCESSES, UNIT.PROCESSES, 'Processes in a server process tree');
  const hostUsage = gauge(MEMORY_METRIC.HOST_USAGE, UNIT.BYTES, 'Host memory in use (total - available)');
  const hostAvailable = gauge(MEMORY_METRIC.HOST_AVAILABLE, UNIT.BYTES, 'Host memory available');
  const hostTotal = gauge(MEMORY_METRIC.HOST_TOTAL, UNIT.BYTES, 'Host memory, total');
  const hostPeak = gauge(MEMORY_METRIC.HOST_SAMPLED_PEAK, UNIT.BYTES, 'Largest sampled host memory in use');
  const servers: ServerState[] = [];
  for (const server of options.servers) {
    if (server.pid === undefined) continue;
    const tree = { [ATTR.SERVER_NAME]: server.name, [ATTR.SERVER_TYPE]: server.type, [MEMORY_ATTR.PID]: server.pid };
    servers.push({ tree, rss: { ...tree, [MEMORY_ATTR.MEMORY_TYPE]: 'rss' }, pss: { ...tree, [MEMORY_ATTR.MEMORY_TYPE]: 'pss' }, pid: server.pid, peakRss: 0, peakPss: 0 });
  }
  let hostPeakBytes = 0;
  let stopped = false;
  let pssInFlight: Promise<void> | undefined;

  const sampleRss = (): SampledTree[] => {
    const trees: SampledTree[] = [];
    for (const server of servers) {
      try {
        const memory = readTreeMemory(server.pid, procRoot);
        if (memory === undefined) continue; // the server is gone: nothing to record
        server.peakRss = Math.max(server.peakRss, memory.rssBytes);
        usage.record(memory.rssBytes, server.rss);
        peak.record(server.peakRss, server.rss);
        processes.record(memory.pids.length, server.tree);
        trees.push({ server, pids: memory.pids });
      } catch {
        // sampling never breaks the orchestrator
      }
    }
    try {
      const host = readHostMemory(procRoot);
      if (host !== undefined) {
        const used = host.totalBytes - host.availableBytes;
        hostPeakBytes = Math.max(hostPeakBytes, used);
        hostUsage.record(used);
        hostAvailable.record(host.availableBytes);
        hostTotal.record(host.totalBytes);
        hostPeak.record(hostPeakBytes);
      }
    } catch {
      // as above
    }
    return trees;
  };

  const samplePss = async (trees: SampledTree[]): Promise<void> => {
    for (const { server, pids } of trees) {
      try {
        const pss = await readTreePss(pids, procRoot);
        if (pss === undefined || stopped) continue; // PSS only when every process of the tree has one
        server.peakPss = Math.max(server.peakPss, pss);
        usage.record(pss, server.pss);
        peak.record(server.peakPss, server.pss);
      } catch {
        // as above
      }
    }
  };

  const sample = (): Promise<void> => {
    const trees = sampleRss();
    pssInFlight ??= samplePss(trees).finally(() => (pssInFlight = undefined));
    return pssInFlight;
  };

  void sample();
  const timer = setInterval(() => void sample(), options.intervalMs);
  timer.unref();
  return {
    sample,
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      sampleRss();
    },
  };
}

/**
 * The orchestrator's entry: starts the sampler when `telemetry.memory_profiling` is on (and metrics
 * with it) for `servers`, else returns `undefined`. Without `/proc` (not Linux) it says so once
 * through `onNote` and samples nothing.
 */
export function startMemoryProfiling(telemetry: GymTelemetry | undefined, servers: readonly ProfiledServer[], onNote: (line: string) => void = () => undefined): MemorySampler | undefined {
  // memory profiling records metrics: it needs them on and exporting
  if (telemetry === undefined || !telemetry.isExportingMetrics) return undefined;
  const settings = telemetry.settings.memoryProfiling;
  if (!settings.enabled) return undefined;
  if (!procAvailable()) {
    onNote('memory profiling needs Linux /proc; no memory metrics on this platform');
    return undefined;
  }
  return startMemorySampler({ meter: telemetry.lens.getMeter(GYM_SCOPE), servers, intervalMs: settings.intervalMs });
}

// Rollouts whose CLIENT spans carry the client phases (`gym.http.phase.*`) as the runtime records
// them, with known delays injected into chosen phases of chosen hops, and the collector's CLIENT
// span around each rollout (the `per_rollout` preset's root).
import type { FixtureSpan } from './fixtures.js';
import { AGENT, defaultPresetSpans, MODEL, nextId, RESOURCES, rolloutSpans } from './fixtures.js';

export const COLLECTOR = 'nemo-gym/collector';

/** One hop's phases, ms. Unset phases take the unloaded loopback values below. */
export interface HopShape {
  queuedMs?: number;
  connectMs?: number;
  transitMs?: number;
  serverMs: number;
  returnMs?: number;
}

/** Unloaded loopback: what a hop costs when nothing waits. */
export const IDLE_HOP = { queuedMs: 0.02, connectMs: 0, transitMs: 0.15, returnMs: 0.2 } as const;

export interface PhasedRolloutOptions {
  rolloutId: string;
  atMs: number;
  model?: HopShape;
  tool?: HopShape;
  verify?: HopShape;
  collector?: HopShape;
  /** Agent's own time before each call, ms. */
  agentStepMs?: number;
  reward?: number;
}

const WRITE_MS = 0.03; // writing a small request on loopback

/**
 * collector `HTTP POST` → agent `POST /run` → `gym.rollout` → model call, tool call, verify call,
 * each hop shaped by its {@link HopShape}.
 */
export function phasedRolloutSpans(o: PhasedRolloutOptions): FixtureSpan[] {
  const traceId = nextId(16);
  const rid = { 'nemo.gym.rollout.id': o.rolloutId };
  const step = o.agentStepMs ?? 0.5;
  const spans: FixtureSpan[] = [];
  const mk = (name: string, kind: FixtureSpan['kind'], service: string, parent: string | null, startMs: number, endMs: number, attributes: Record<string, unknown>): FixtureSpan => {
    const s: FixtureSpan = { traceId, spanId: nextId(8), parentSpanId: parent, name, kind, service, startMs, endMs, attributes };
    spans.push(s);
    return s;
  };
  // A hop starting at `at`: CLIENT in `from`, SERVER in `to`, `inner` fills the server's time.
  const hop = (from: string, parent: string, at: number, to: string, route: string, port: number, h: HopShape, inner?: (server: FixtureSpan) => void): FixtureSpan => {
    const q = h.queuedMs ?? IDLE_HOP.queuedMs;
    const c = h.connectMs ?? IDLE_HOP.connectMs;
    const sentAt = q + c + WRITE_MS;
    const serverStart = at + sentAt + (h.transitMs ?? IDLE_HOP.transitMs);
    const serverEnd = serverStart + h.serverMs;
    const end = serverEnd + (h.returnMs ?? IDLE_HOP.returnMs);
    const client = mk('HTTP POST', 'CLIENT', from, parent, at, end, {
      'http.request.method': 'POST',
      'url.full': `http://127.0.0.1:${port}${route}`,
      'server.address': '127.0.0.1',
      'server.port': port,
      ...rid,
      'http.response.status_code': 200,
      'gym.http.phase.queued_ms': q,
      'gym.http.phase.connect_ms': c,
      'gym.http.connection.reused': c === 0,
      'gym.http.phase.sent_at_ms': round(sentAt),
      'gym.http.phase.headers_at_ms': round(end - at - 0.05),
      'gym.http.phase.done_at_ms': round(end - at - 0.01),
    });
    const server = mk(`POST ${route}`, 'SERVER', to, client.spanId, serverStart, serverEnd, { 'http.request.method': 'POST', 'http.route': route, 'http.response.status_code': 200 });
    inner?.(server);
    return client;
  };
  const agentWork = (run: FixtureSpan) => {
    const rolloutStart = run.startMs + 0.05;
    let t = rolloutStart;
    const rollout = mk('gym.rollout', 'INTERNAL', AGENT, run.spanId, rolloutStart, 0, { 'nemo.gym.server.name': 'simple_agent', ...rid });
    t += step;
    t =
      hop(AGENT, rollout.spanId, t, MODEL, '/v1/responses', 9001, o.model ?? { serverMs: 20 }, (s) => {
        mk('gym.model.responses', 'INTERNAL', MODEL, s.spanId, s.startMs + 0.05, s.endMs - 0.05, { 'gen_ai.request.model': 'sim', ...rid });
      }).endMs + step;
    t = hop(AGENT, rollout.spanId, t, RESOURCES, '/get_weather', 9002, o.tool ?? { serverMs: 2 }).endMs + step;
    t =
      hop(AGENT, rollout.spanId, t, RESOURCES, '/verify', 9002, o.verify ?? { serverMs: 3 }, (s) => {
        mk('gym.verify', 'INTERNAL', RESOURCES, s.spanId, s.startMs + 0.05, s.endMs - 0.05, { 'gym.verify.reward': o.reward ?? 1, ...rid });
      }).endMs + step;
    rollout.endMs = t;
    run.endMs = t + 0.1;
  };
  // The collector's hop: its SERVER span is the agent's /run, sized by the rollout inside it.
  const c: Partial<HopShape> = o.collector ?? {};
  const q = c.queuedMs ?? IDLE_HOP.queuedMs;
  const conn = c.connectMs ?? IDLE_HOP.connectMs;
  const sentAt = q + conn + WRITE_MS;
  const collector = mk('HTTP POST', 'CLIENT', COLLECTOR, null, o.atMs, 0, {
    'http.request.method': 'POST',
    'url.full': 'http://127.0.0.1:9000/run',
    'server.address': '127.0.0.1',
    'server.port': 9000,
    ...rid,
    'http.response.status_code': 200,
    'gym.http.phase.queued_ms': q,
    'gym.http.phase.connect_ms': conn,
    'gym.http.connection.reused': conn === 0,
    'gym.http.phase.sent_at_ms': round(sentAt),
  });
  const runStart = o.atMs + sentAt + (c.transitMs ?? IDLE_HOP.transitMs);
  const run = mk('POST /run', 'SERVER', AGENT, collector.spanId, runStart, 0, { 'http.request.method': 'POST', 'http.route': '/run', 'http.response.status_code': 200 });
  agentWork(run);
  collector.endMs = run.endMs + (c.returnMs ?? IDLE_HOP.returnMs);
  collector.attributes!['gym.http.phase.headers_at_ms'] = round(collector.endMs - o.atMs - 0.05);
  collector.attributes!['gym.http.phase.done_at_ms'] = round(collector.endMs - o.atMs - 0.01);
  return spans;
}

// Producers round to the microsecond.
function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/** The CLIENT phase attributes the HTTP client records (queued, connect, sent), plus `extra`. */
export function clientPhaseAttributes(queued: number, connect: number, sentAt: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'gym.http.phase.queued_ms': queued,
    'gym.http.phase.connect_ms': connect,
    'gym.http.connection.reused': connect === 0,
    'gym.http.phase.sent_at_ms': sentAt,
    ...extra,
  };
}

/**
 * Seven rollouts of every shape the analyses treat apart: phased rollouts (one idle, one with the
 * collector's hop and queued calls, one with tool and verify phases), a default-preset run of three
 * and one rollout without phases.
 */
export function mixedRolloutSpans(): FixtureSpan[] {
  return [
    ...phasedRolloutSpans({ rolloutId: 'p0', atMs: 0 }),
    ...phasedRolloutSpans({
      rolloutId: 'p1',
      atMs: 10,
      model: { serverMs: 40, queuedMs: 7, connectMs: 2, transitMs: 3, returnMs: 1 },
      collector: { serverMs: 0, queuedMs: 120, transitMs: 30, returnMs: 15 },
    }),
    ...phasedRolloutSpans({ rolloutId: 'p2', atMs: 20, tool: { serverMs: 5, transitMs: 9 }, verify: { serverMs: 1, connectMs: 4 } }),
    ...defaultPresetSpans(['d0', 'd1', 'd2']),
    ...rolloutSpans({ rolloutId: 'r0' }),
  ];
}

/**
 * SERVER spans that should exist and do not: CLIENT calls to a gym server that left no SERVER
 * child. A cut or lost log file shows up this way — as many missing SERVER spans of one callee,
 * counted per callee, rather than as an orphan or two.
 * @module
 */
import type { SpanNode, TraceSet } from '../assemble/trace-model.js';
import { isTruncated, SPAN } from '../span-record.js';
import type { SpanSource } from '../span-record.js';
import { calleeOf } from './callee.js';
import { failedWithoutAnswer } from './unanswered.js';

/** The missing SERVER spans of one callee. */
export interface MissingServerSpans {
  /** The callee's service when other calls to the same address reached it, else its address. */
  callee: string;
  /** True when the callee's service is otherwise in the input (its file was cut, not lost). */
  calleeSeen: boolean;
  count: number;
  /** Callers (services) of the calls. */
  from: string[];
  /** Up to 5 of the CLIENT spans left without a SERVER child. */
  examples: Array<{ traceId: string; spanId: string; source: SpanSource }>;
}

/** Counts, per callee, the CLIENT spans to gym servers that have no SERVER child. */
export function findMissingServerSpans(set: TraceSet): MissingServerSpans[] {
  const acc = new MissingServerAccumulator();
  acc.add(set);
  return acc.finish();
}

interface LonelyCalls {
  count: number;
  from: string[];
  examples: MissingServerSpans['examples'];
}

/** What a {@link MissingServerAccumulator} holds. */
export interface MissingServerState {
  serviceAt: Array<[string, string]>;
  all: Array<[string, LonelyCalls]>;
  fromRollout: Array<[string, LonelyCalls]>;
}

/**
 * {@link findMissingServerSpans} over trace sets read one after the other (a run read in
 * partitions): what each set teaches about addresses and its lonely calls are kept as counts.
 */
export class MissingServerAccumulator {
  // Which service answers at which address, learnt from the calls that did reach a SERVER span.
  #serviceAt = new Map<string, string>();
  // Lonely calls per address: all of them, and those made by the rollout itself (the collector or the agent).
  #all = new Map<string, LonelyCalls>();
  #fromRollout = new Map<string, LonelyCalls>();

  add(set: TraceSet): void {
    for (const trace of set.traces.values()) {
      for (const node of trace.nodes.values()) {
        if (node.span.kind !== 'CLIENT') continue;
        const server = node.children.find((c) => c.span.kind === 'SERVER');
        if (server !== undefined) this.#serviceAt.set(calleeOf(node.span), server.span.service);
        else if (expectsServer(node)) {
          const address = calleeOf(node.span);
          note(this.#all, address, node);
          if (fromRolloutItself(node)) note(this.#fromRollout, address, node);
        }
      }
    }
  }

  /** What has been added so far, as plain data (for {@link MissingServerAccumulator.merge} in another thread). */
  state(): MissingServerState {
    return { serviceAt: [...this.#serviceAt], all: [...this.#all], fromRollout: [...this.#fromRollout] };
  }

  /** Adds another accumulator's state, as if its sets had been added here after these. */
  merge(s: MissingServerState): void {
    for (const [address, service] of s.serviceAt) this.#serviceAt.set(address, service);
    for (const [into, from] of [
      [this.#all, s.all],
      [this.#fromRollout, s.fromRollout],
    ] as const) {
      for (const [address, calls] of from) {
        let c = into.get(address);
        if (c === undefined) into.set(address, (c = { count: 0, from: [], examples: [] }));
        c.count += calls.count;
        for (const f of calls.from) if (!c.from.includes(f)) c.from.push(f);
        for (const e of calls.examples) if (c.examples.length < 5) c.examples.push(e);
      }
    }
  }

  finish(): MissingServerSpans[] {
    const byCallee = new Map<string, MissingServerSpans>();
    for (const [address, all] of this.#all) {
      const service = this.#serviceAt.get(address);
      // A call from inside a model or a tool to an address never seen answering is an external
      // upstream (vLLM, a web API), not a gym server.
      const calls = service === undefined ? this.#fromRollout.get(address) : all;
      if (calls === undefined) continue;
      const key = service ?? address;
      let m = byCallee.get(key);
      if (m === undefined) byCallee.set(key, (m = { callee: key, calleeSeen: service !== undefined, count: 0, from: [], examples: [] }));
      m.count += calls.count;
      for (const f of calls.from) if (!m.from.includes(f)) m.from.push(f);
      for (const e of calls.examples) if (m.examples.length < 5) m.examples.push(e);
    }
    return [...byCallee.values()].sort((a, b) => b.count - a.count);
  }
}

function note(map: Map<string, LonelyCalls>, address: string, node: SpanNode): void {
  let c = map.get(address);
  if (c === undefined) map.set(address, (c = { count: 0, from: [], examples: [] }));
  c.count++;
  if (!c.from.includes(node.span.service)) c.from.push(node.span.service);
  if (c.examples.length < 5) c.examples.push({ traceId: node.span.traceId, spanId: node.span.spanId, source: node.span.source });
}

// A request that got an answer must have been seen by a server; one that failed to connect, or
// was still waiting when the process shut down, may never have reached it.
function expectsServer(node: SpanNode): boolean {
  const s = node.span;
  if (!s.ended || isTruncated(s)) return false;
  if (failedWithoutAnswer(s)) return false;
  return true;
}

// The agent's own calls (no SERVER span between them and gym.rollout) and the collector's (no
// parent) always go to gym servers.
function fromRolloutItself(node: SpanNode): boolean {
  for (let p = node.parent; p !== null; p = p.parent) {
    if (p.span.name === SPAN.ROLLOUT) return true;
    if (p.span.kind === 'SERVER' || p.span.name.startsWith(SPAN.MODEL_PREFIX)) return false;
  }
  return true;
}

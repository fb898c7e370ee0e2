/**
 * A tiny agent server for collector tests: `/run` runs a scripted behaviour and the server counts
 * in-flight requests. `gate` holds requests until a condition over the counters holds, so tests
 * synchronise on state, not on time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineAgentServer } from '../../../server/src/server/agent-server.js';
import { listen } from '../../../server/src/server/lifecycle.js';
import type { RouteContext } from '../../../server/src/server/json-route.js';
import type { CollectionEnvironment } from '../../src/rollouts/environment.js';
import type { ServerInstanceDisplay } from '../../src/orchestrator/server-instances.js';

export type RunBody = Record<string, unknown> & { _ng_task_index: number; _ng_rollout_index: number; _ng_attempt_index?: number };

export interface TestAgent {
  url: string;
  environment: CollectionEnvironment;
  stats: { requests: number; inFlight: number; maxInFlight: number; completed: number; aggregateCalls: unknown[] };
  close(): Promise<void>;
}

export interface TestAgentOptions {
  /** Returns the /run result; throw to answer 500. */
  run?: (body: RunBody, context: RouteContext, stats: TestAgent['stats']) => unknown;
  /** Hold each request until this is true (re-checked whenever a request arrives or finishes). */
  gate?: (stats: TestAgent['stats']) => boolean;
  aggregate?: (body: unknown) => unknown;
  name?: string;
}

export async function startTestAgent(options: TestAgentOptions = {}): Promise<TestAgent> {
  const stats = { requests: 0, inFlight: 0, maxInFlight: 0, completed: 0, aggregateCalls: [] as unknown[] };
  const waiters: (() => void)[] = [];
  const recheck = () => {
    if (options.gate === undefined || options.gate(stats)) for (const w of waiters.splice(0)) w();
  };
  const name = options.name ?? 'test_agent';
  const def = defineAgentServer({
    name,
    run: {
      handler: async (body, context) => {
        stats.requests++;
        stats.inFlight++;
        stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
        try {
          if (options.gate !== undefined) {
            const released = new Promise<void>((resolve) => waiters.push(resolve));
            recheck();
            await released;
          }
          return (options.run ?? (() => ({ reward: 1 })))(body as unknown as RunBody, context, stats);
        } finally {
          stats.inFlight--;
          stats.completed++;
          recheck();
        }
      },
    },
    responses: { handler: () => ({}) },
    aggregateMetrics: {
      handler: (body) => {
        stats.aggregateCalls.push(body);
        return (options.aggregate?.(body) ?? { agent_metrics: {}, key_metrics: {}, group_level_metrics: [] }) as never;
      },
    },
  });
  const app = def.build();
  const address = await listen(app);
  const instance = agentInstance(name, 'test_agent_impl', address);
  return { url: address.url, environment: { config: {}, instances: [instance] }, stats, close: () => app.close() };
}

/** A temp dir with an input file of `n` distinct rows. */
export function tempRun(n: number): { dir: string; input: string; output: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'gym-rollouts-'));
  const input = join(dir, 'in.jsonl');
  writeFileSync(input, Array.from({ length: n }, (_, i) => JSON.stringify({ responses_create_params: { input: `q${i}` }, id: i })).join('\n') + '\n');
  return { dir, input, output: join(dir, 'out.jsonl'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Parsed JSONL rows of a file. */
export function readRows(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** `"task:rollout"` keys of rows, sorted. */
export function keysOf(rows: readonly Record<string, unknown>[]): string[] {
  return rows.map((r) => `${String(r['_ng_task_index'])}:${String(r['_ng_rollout_index'])}`).sort();
}

/** The environment's record of an agent served by this process at `address` (as `gym env start` would list it). */
export function agentInstance(processName: string, name: string, address: { host: string; port: number; url: string }): ServerInstanceDisplay {
  return {
    process_name: processName,
    server_type: 'responses_api_agents',
    name,
    dir_path: '',
    entrypoint: '',
    host: address.host,
    port: address.port,
    url: address.url,
    pid: process.pid,
    config_path: processName,
    start_time: 0,
  };
}

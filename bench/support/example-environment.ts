// The environment the throughput benches drive — example_single_tool_call, simulated_model and
// simple_agent from this repository — and the server environment of a telemetry setting.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@gym/server';
import { startEnvironment } from '@gym/runtime';
import type { RunningEnvironment } from '@gym/runtime';
import { freePort } from '@gym/server/testing';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The first row of the example's dataset: the body of every `/run` the benches send. */
export const EXAMPLE_ROW = readFileSync(join(REPO_ROOT, 'resources_servers/example_single_tool_call/data/example.jsonl'), 'utf8').split('\n')[0]!;

/** This process's environment without telemetry settings: telemetry off. */
export const TELEMETRY_OFF_ENV: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('NEMO_') && !k.startsWith('OTEL_')));

/** The servers' environment for span groups `groups` (`off`: telemetry off) with console telemetry. */
export function telemetryEnv(groups: string): NodeJS.ProcessEnv {
  return groups === 'off' ? TELEMETRY_OFF_ENV : { ...TELEMETRY_OFF_ENV, NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: groups };
}

/** Starts the example environment with `env`, its logs in `logDir`, and extra config `overrides`. */
export async function startExampleEnvironment(env: NodeJS.ProcessEnv, logDir: string, overrides: readonly string[] = []): Promise<RunningEnvironment> {
  const config = await loadConfig({
    rootDir: REPO_ROOT,
    selectors: { resourcesServers: ['example_single_tool_call'], modelTypes: ['simulated_model'] },
    overrides: [`++head_server.port=${await freePort()}`, ...overrides],
  });
  return startEnvironment({ config, roots: [REPO_ROOT], logDir, env });
}

/**
 * Runs `gym eval run --resources-server <name> --model-type simulated_model` (or another model) on
 * the server's example data with console telemetry on, and returns the span tree of one rollout — for each
 * environment's end-to-end test, which checks the tree shows the environment's own work.
 * @module
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRecords, treeLines } from '../../packages/runtime/test/support/console-records.js';
import type { SpanLine } from '../../packages/runtime/test/support/console-records.js';
import { consoleTelemetryRun, runGym } from '../../packages/runtime/test/support/gym-process.js';

/** The outcome of one run: its rollout rows and one rollout's tree of `name [service]` lines. */
export interface EvalRunTree {
  rows: Array<Record<string, unknown>>;
  tree: string[];
  stderr: string;
}

/** The service of a span line: its own `service.name` field, or the resource block older lines carry. */
function serviceOf(span: SpanLine): string {
  const own = (span as unknown as Record<string, unknown>)['service.name'];
  const name = typeof own === 'string' ? own : String(span.resource?.attributes['service.name']);
  return name.replace('nemo-gym/', '');
}

/**
 * Runs the eval (default span groups plus `verify`), and returns the rows and the tree of the first
 * row's rollout. `modelArgs` choose the policy model: the simulator unless given; `inspectLogs`
 * runs on the telemetry log directory before it is removed.
 */
export async function evalRunTree(resourcesServer: string, modelArgs: string[] = ['--model-type', 'simulated_model'], inspectLogs?: (logDir: string) => Promise<void>): Promise<EvalRunTree> {
  const dir = mkdtempSync(join(tmpdir(), `gym-${resourcesServer}-`));
  try {
    const output = join(dir, 'rollouts.jsonl');
    const args = ['eval', 'run', '--resources-server', resourcesServer, ...modelArgs, ...(await consoleTelemetryRun(output, join(dir, 'logs'), 'default,verify'))];
    const { code, stdout, stderr } = await runGym(args);
    if (code !== 0) throw new Error(`gym eval run exited ${code}:\n${stdout}\n${stderr}`);
    const rows = readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const { spans } = readRecords(join(dir, 'logs'));
    const rollout = spans.find((span) => span.name === 'gym.rollout');
    if (rollout === undefined) throw new Error('no gym.rollout span was written');
    await inspectLogs?.(join(dir, 'logs'));
    return { rows, tree: treeLines(spans, rollout.trace_id, serviceOf), stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

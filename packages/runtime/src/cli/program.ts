/**
 * The `gym` command table. Only declares commands and flags; each action lazily imports
 * `commands/<name>.js`, so `gym env status` never loads the orchestrator.
 * @module
 */
import { readFileSync } from 'node:fs';
import { Command } from '@commander-js/extra-typings';
import type { Command as PlainCommand } from 'commander';
import { registerTraceCommands } from '@gym/trace/cli';
import { withConfigFlags } from './config-flags.js';
import type { CliIo } from './io.js';

/** Builds the `gym` program writing through `io`. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('gym')
    .description('gym: RL and agent-evaluation environments where one rollout is one distributed trace')
    .version(gymVersion(), '-V, --version', 'print the gym version')
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) });

  const env = program.command('env').description('start, inspect and check an environment');
  withConfigFlags(env.command('start').description('start the head server and every server instance; Ctrl-C stops them'))
    .option('--log-dir <dir>', 'where <instance>.log files go (default .gym/logs/<timestamp>)')
    .option('--show-telemetry', 'echo console telemetry records on the terminal too (they always go to the log files)')
    .option('--verbose', "show the servers' log records as raw JSON (default: one short line each)")
    .action(async (overrides, flags) => (await import('./commands/env-start.js')).envStart(flags, overrides, io));
  env
    .command('status')
    .description('list the running servers of an environment and health-check each')
    .option('--head-url <url>', 'the head server (default: head_server.host/port of the overrides, GYM_HEAD_URL, env.yaml, else 127.0.0.1:11000)')
    .option('--json', 'machine-readable output')
    .argument('[overrides...]', 'head_server.port=<port>, head_server.host=<host>')
    .action(async (overrides, flags) => (await import('./commands/env-status.js')).envStatus(flags, io, overrides));
  env
    .command('list')
    .description('list the resources servers, agents and model servers found, with their descriptions and datasets')
    .option('--search-dir <dir>', 'an extra root searched for servers (repeatable)', (value: string, previous: string[] | undefined) => [...(previous ?? []), value])
    .option('--json', 'machine-readable output')
    .action(async (flags) => (await import('./commands/env-list.js')).envList(flags, io));
  withConfigFlags(env.command('resolve').description('print the merged config, secrets redacted')).action(async (overrides, flags) =>
    (await import('./commands/env-resolve.js')).envResolve(flags, overrides, io),
  );
  withConfigFlags(env.command('validate').description('check a config offline: files, interpolation, references, entrypoints')).action(async (overrides, flags) =>
    (await import('./commands/env-resolve.js')).envValidate(flags, overrides, io),
  );

  const evalCmd = program.command('eval').description('collect rollouts and aggregate their metrics');
  withConfigFlags(evalCmd.command('run').description('collect rollouts: start the servers, run every task row through /run, stop them'))
    .option('--no-serve', 'use servers that already run (found through --head-url) instead of starting them')
    .option('--head-url <url>', 'the head server with --no-serve (default: as gym env status finds it)')
    .option('-a, --agent <name>', 'agent instance for rows without agent_ref (default: the only agent)')
    .option('-i, --input <path>', "input JSONL (default: the agents' datasets of type --split)")
    .option('-o, --output <path>', 'output rollouts JSONL (default results/<agent>_<timestamp>.jsonl)')
    .option('--limit <n>', 'use only the first n input rows')
    .option('--num-repeats <n>', "rollouts per input row (default 1), or per agent: '{my_agent: 4, _default: 1}'")
    .option('--prompt-config <file>', "prompt YAML (user, optional system) that builds each row's input from its fields")
    .option('--split <type>', 'without --input, use the datasets of this type: example (default), train, validation, benchmark')
    .option('--concurrency <n>', 'most /run calls in flight (default unbounded)')
    .option('--resume', 'continue the run in --output: skip done rollouts, retry failed ones')
    .option('--strict-input', 'fail on malformed input lines instead of skipping them')
    .option('--temperature <x>', 'override responses_create_params.temperature')
    .option('--top-p <x>', 'override responses_create_params.top_p')
    .option('--max-output-tokens <n>', 'override responses_create_params.max_output_tokens')
    .option('--disable-aggregation', 'skip aggregate metrics (for shards; see gym eval aggregate)')
    .option('--log-dir <dir>', 'where <instance>.log files go (default .gym/logs/<timestamp>)')
    .option('--show-telemetry', 'echo console telemetry records on the terminal too')
    .option('--no-health-check', 'skip the rollout health check that follows a run with rollout evidence')
    .option('--health-check-ignore <ids>', 'check ids the automatic health check skips (comma-separated)')
    .option('--verbose', "show the servers' log records as raw JSON (default: one short line each)")
    .action(async (overrides, flags) => (await import('./commands/eval-run.js')).evalRun(flags, overrides, io));
  evalCmd
    .command('health-check')
    .description('verdicts per rollout (healthy, unhealthy, unobserved) from the rollout evidence in a rollouts file')
    .argument('<rollouts>', 'rollouts JSONL of a run; writes <stem>_rollout_verdicts.jsonl and <stem>_quality_summary.json next to it')
    .option('--ignore <ids>', 'check ids not to run (comma-separated)')
    .option('--ignore-checks <ids>', 'the same as --ignore')
    .action(async (rollouts, flags) => (await import('./commands/eval-health-check.js')).evalHealthCheck(rollouts, flags, io));
  evalCmd
    .command('aggregate')
    .description('merge rollout shards into one file and recompute the aggregate metrics')
    .requiredOption('-i, --input-glob <patterns...>', 'shard files or globs (comma-separated lists allowed)')
    .requiredOption('-o, --output <file>', 'merged rollouts JSONL; metrics go to <stem>_aggregate_metrics.json')
    .action(async (flags) => (await import('./commands/eval-aggregate.js')).evalAggregate(flags, io));
  registerTraceCommands(program);
  pointToHelpAfterErrors(program as unknown as PlainCommand);
  return program;
}

/** The version of the installed `@gym/runtime`. */
export function gymVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

// Every command throws instead of exiting (main decides the code); a usage error prints one line and where to read more, not the whole help (which buries the error).
function pointToHelpAfterErrors(command: PlainCommand, path: string = command.name()): void {
  command.showHelpAfterError(`(run '${path} --help' for usage)`).exitOverride();
  for (const sub of command.commands) pointToHelpAfterErrors(sub, `${path} ${sub.name()}`);
}

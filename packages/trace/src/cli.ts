/**
 * The `trace` command table. Declares commands and flags only; each action lazily imports its
 * `commands/<name>.js` module, so `gym --help` loads none of them. This is the `@gym/trace/cli`
 * entry point: a host CLI imports it without loading the library's readers and analyses.
 * @module
 */
import { InvalidArgumentError, Option } from '@commander-js/extra-typings';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { processOutput } from './commands/output.js';
import { outputWidth, useColor } from './render/format.js';
import type { OutputFormat } from './commands/output.js';

// the host CLI sizes its own tables and wraps its lines as trace does, without loading the library root
export { outputWidth, wrapProse } from './render/format.js';

// Flag policy: `--json` wins over `--markdown`; neither means text. Numbers are checked here, before
// any file is read, and again by the command (so library callers get the same checks).

/** A whole number of at least `min` (`--slowest 3`, `--port 0`); anything else stops the command at once. */
function wholeNumber(min: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number${min > 0 ? ` of at least ${min}` : ' (0 or more)'}.`);
    return n;
  };
}

/** A number of 0 or more (`--threshold 12.5`). */
function nonNegative(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new InvalidArgumentError('expected a number (0 or more).');
  return n;
}
function formatOf(o: { json?: boolean; markdown?: boolean }): OutputFormat {
  return o.json === true ? 'json' : o.markdown === true ? 'markdown' : 'text';
}

// text fits the terminal (or COLUMNS), 80 columns at least
function widthOption(): { width?: number } {
  const width = outputWidth();
  return width === undefined ? {} : { width };
}

function setExit(code: number): void {
  if (code !== 0) process.exitCode = code;
}

const PATHS_HELP = 'telemetry files or directories (default: newest run under .gym/logs/)';

/**
 * Adds `trace` with subcommands `show`, `why`, `stats`, `anomalies`, `sql`, `top`, `convert`, `push`,
 * `report`, `receive`
 * to `program`.
 * @example
 * const program = new Command('gym');
 * registerTraceCommands(program);
 * await program.parseAsync();
 */
export function registerTraceCommands<A extends unknown[], O extends OptionValues, G extends OptionValues>(program: Command<A, O, G>): void {
  const trace = program.command('trace').description('read telemetry files and show where rollouts spent their time');

  trace
    .command('show')
    .description('print the span tree of a rollout or trace, with durations, waterfall and critical path')
    .argument('[paths...]', PATHS_HELP)
    .option('--rollout <id>', 'rollout id (nemo.gym.rollout.id) or trace id')
    .option('--trace <id>', 'trace id (or a unique prefix of at least 6 hex digits)')
    .option('--slowest <n>', 'the N slowest rollouts', wholeNumber(1))
    .option('--failed', 'rollouts with error spans or without verification')
    .option('--max-spans <n>', 'spans listed per tree at most', wholeNumber(1), 500)
    .option(
      '--evidence <rollouts>',
      "a rollouts JSONL of the run (repeatable): show each rollout's captured model calls, tool calls, gaps and health verdict",
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option('--json', 'JSON output')
    .option('--markdown', 'Markdown output')
    .action(async (paths, o) => {
      const { show } = await import('./commands/show.js');
      const opts = { paths, format: formatOf(o), color: useColor(), ...widthOption(), maxSpans: o.maxSpans, failed: o.failed === true, ...(o.evidence === undefined ? {} : { evidence: o.evidence }) };
      setExit(
        await show(
          { ...opts, ...(o.rollout === undefined ? {} : { rollout: o.rollout }), ...(o.trace === undefined ? {} : { trace: o.trace }), ...(o.slowest === undefined ? {} : { slowest: o.slowest }) },
          processOutput(),
        ),
      );
    });

  trace
    .command('why')
    .description("split a rollout's wall time into model, tools, verification, agent and each queue of each hop, and name the bottleneck")
    .argument('[id]', 'rollout id or trace id (omit with --all)')
    .argument('[paths...]', PATHS_HELP)
    .option('--all', 'aggregate over every rollout')
    .option('--json', 'JSON output')
    .option('--markdown', 'Markdown output')
    .action(async (id, paths, o) => {
      const { why } = await import('./commands/why.js');
      // With --all there is no id: the first positional is a path.
      const all = o.all === true;
      const allPaths = all && id !== undefined ? [id, ...paths] : paths;
      setExit(await why({ paths: allPaths, all, format: formatOf(o), ...widthOption(), ...(all || id === undefined ? {} : { id }) }, processOutput()));
    });

  trace
    .command('stats')
    .description('per span name (or service, or attribute) counts, error rate and exact percentiles')
    .argument('[paths...]', PATHS_HELP)
    .addOption(new Option('--by <grouping>', 'name | service | attribute:<key>').default('name'))
    .option('--compare <inputs...>', 'compare two inputs A B (files or directories)')
    .option('--threshold <pct>', 'flag p50/p95 moves above this percentage', nonNegative, 10)
    .option('--json', 'JSON output')
    .option('--markdown', 'Markdown output')
    .action(async (paths, o) => {
      const { stats } = await import('./commands/stats.js');
      const compare = o.compare === undefined ? {} : { compare: o.compare as [string, string] };
      setExit(await stats({ paths, by: o.by, thresholdPct: o.threshold, format: formatOf(o), ...widthOption(), ...compare }, processOutput()));
    });

  trace
    .command('anomalies')
    .description('truncated, orphan, duplicate, unclosed and error spans; rollouts without verify; retries')
    .argument('[paths...]', PATHS_HELP)
    .option('--json', 'JSON output')
    .option('--markdown', 'Markdown output')
    .action(async (paths, o) => {
      const { anomalies } = await import('./commands/anomalies.js');
      setExit(await anomalies({ paths, format: formatOf(o) }, processOutput()));
    });

  trace
    .command('sql')
    .description('answer a SQL query over the spans and metrics of a run (DuckDB; tables spans, metrics)')
    .argument('<query>', 'the query, e.g. "SELECT name, count(*) FROM spans GROUP BY name"')
    .argument('[paths...]', PATHS_HELP)
    .option('--memory-limit <size>', 'DuckDB memory limit; it spills to disk beyond it', '1GB')
    .option('--threads <n>', 'DuckDB threads (default: one per core)', wholeNumber(1))
    .option('--max-rows <n>', 'rows printed at most (all with --json)', wholeNumber(1), 1000)
    .option('--json', 'JSON output')
    .option('--markdown', 'Markdown output')
    .option('--allow-files', "let the query read and write files other than the run's tables (read_csv, COPY ... TO); off by default")
    .action(async (query, paths, o) => {
      const { sql } = await import('./commands/sql.js');
      setExit(
        await sql(
          { query, paths, format: formatOf(o), memoryLimit: o.memoryLimit, maxRows: o.maxRows, allowFiles: o.allowFiles === true, ...(o.threads === undefined ? {} : { threads: o.threads }) },
          processOutput(),
        ),
      );
    });

  trace
    .command('top')
    .description("follow a run's log files as they grow: rollouts done, failed and in flight, the slowest, each process's event loop")
    .argument('[paths...]', PATHS_HELP)
    .option('--interval <ms>', 'milliseconds between redraws', wholeNumber(50), 1000)
    .option('--once', 'read what is there, print one frame and exit')
    .action(async (paths, o) => {
      const { top } = await import('./commands/top.js');
      // Ctrl-C ends the view, not the process: the loop stops, the cursor comes back, exit 0
      const stop = new AbortController();
      const onSignal = (): void => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        setExit(await top({ paths, intervalMs: o.interval, once: o.once === true, tty: process.stdout.isTTY === true, signal: stop.signal }, processOutput({ rawWrite: true })));
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
    });

  trace
    .command('convert')
    .description('rewrite the input as OTLP/JSON lines (Collector file-exporter format)')
    .argument('[paths...]', PATHS_HELP)
    .addOption(new Option('--to <format>', 'output format').choices(['otlp-json'] as const).makeOptionMandatory())
    .option('--out <file>', 'output file (default: stdout)')
    .action(async (paths, o) => {
      const { convert } = await import('./commands/convert.js');
      setExit(await convert({ paths, to: o.to, ...(o.out === undefined ? {} : { out: o.out }) }, processOutput()));
    });

  trace
    .command('push')
    .description('replay the spans to an OTLP collector (Jaeger, Tempo, the OpenTelemetry Collector…) with their ids and times')
    .argument('[paths...]', PATHS_HELP)
    .requiredOption('--endpoint <url>', 'collector URL, e.g. http://127.0.0.1:4318 (HTTP) or :4317 (gRPC)')
    .addOption(new Option('--protocol <protocol>', 'OTLP protocol').choices(['http/protobuf', 'http/json', 'grpc'] as const).default('http/protobuf' as const))
    .option('--header <key=value>', 'request header or gRPC metadata (repeatable)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .option('--batch-size <n>', 'spans per export request', wholeNumber(1), 512)
    .action(async (paths, o) => {
      const { push } = await import('./commands/push.js');
      const headers = Object.fromEntries((o.header ?? []).map((h): [string, string] => [h.slice(0, Math.max(0, h.indexOf('='))), h.slice(h.indexOf('=') + 1)]).filter(([k]) => k !== ''));
      setExit(await push({ paths, endpoint: o.endpoint, protocol: o.protocol, headers, batchSize: o.batchSize }, processOutput()));
    });

  trace
    .command('report')
    .description('write one self-contained HTML report: summary, rollout list, waterfalls, span statistics')
    .argument('[paths...]', PATHS_HELP)
    .option('--out <file>', 'output HTML file', 'trace-report.html')
    .option('--max-rollouts <n>', 'rollouts with full span detail (a quarter failed, half the slowest, the rest a sample)', wholeNumber(0), 200)
    .option('--max-spans <n>', 'spans per waterfall at most', wholeNumber(1), 1000)
    .option('--max-rows <n>', 'above this many rollouts, list only those with span detail (all are counted)', wholeNumber(0), 2000)
    .option('--evidence <rollouts>', "a rollouts JSONL of the run (repeatable): show each rollout's captured calls, tool calls, gaps and health verdict", (v: string, prev: string[] | undefined) => [
      ...(prev ?? []),
      v,
    ])
    .action(async (paths, o) => {
      const { report } = await import('./commands/report.js');
      setExit(
        await report({ paths, out: o.out, maxRollouts: o.maxRollouts, maxSpans: o.maxSpans, maxRows: o.maxRows, ...(o.evidence === undefined ? {} : { evidence: o.evidence }) }, processOutput()),
      );
    });

  trace
    .command('receive')
    .description('run an OTLP receiver (gRPC, HTTP protobuf/JSON) writing <service>.jsonl files the other commands read')
    .requiredOption('--out <dir>', 'directory for <service.name>.jsonl files (created if missing)')
    .option('--grpc-port <port>', 'OTLP/gRPC port (0 = any free port)', wholeNumber(0), 4317)
    .option('--http-port <port>', 'OTLP/HTTP port (0 = any free port)', wholeNumber(0), 4318)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--every <n>', 'print a line every N spans received', wholeNumber(1), 1000)
    .action(async (o) => {
      const { receive } = await import('./commands/receive.js');
      setExit(await receive({ out: o.out, grpcPort: o.grpcPort, httpPort: o.httpPort, host: o.host, progressEvery: o.every }, processOutput()));
    });
}

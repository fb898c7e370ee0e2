// Runs one `gym trace` command in this process and prints its wall time, CPU time and peak RSS as
// JSON (a fresh process per command, so the peak is the command's own): the command's own, and
// the process's from its start (Node, the modules loaded). JavaScript, so that plain `node` runs
// it over the compiled build (`dist/`, as a user's `gym` runs); with `--conditions=source
// --import tsx`, over the sources.
// Run: node bench/support/trace-command.mjs <command> <dir> [arg]
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { anomalies, convert, expandPaths, push, report, show, sql, stats, top, why } from '@gym/trace';

// what every command but `sql` runs DuckDB with (packages/trace/src/store/duck.ts)
const DEFAULT_MEMORY_LIMIT = '512MB';

const [command, dir, arg] = process.argv.slice(2);
if (command === undefined || dir === undefined)
  throw new Error(
    'usage: trace-command.mjs <store|duckdb-plain|stats|anomalies|why-all|show|show-list|show-failed|sql|report|convert|top|push> <dir> [rollout id | query | output file | OTLP/HTTP endpoint]',
  );
/** @type {import('@gym/trace').CommandOutput} */
const out = { write: () => undefined, error: (t) => void process.stderr.write(t) };
const paths = [dir];
const t0 = performance.now();
const c0 = process.cpuUsage();
const code = await (() => {
  switch (command) {
    case 'store':
      // the first command's conversion, with a query that reads nothing
      return sql({ paths, query: 'SELECT 1', memoryLimit: DEFAULT_MEMORY_LIMIT }, out);
    case 'duckdb-plain':
      return plainConversion(arg);
    case 'stats':
      return stats({ paths }, out);
    case 'anomalies':
      return anomalies({ paths }, out);
    case 'why-all':
      return why({ paths, all: true }, out);
    case 'show':
      return show({ paths, rollout: arg }, out);
    case 'show-list':
      // the list of the run's rollouts (no selector)
      return show({ paths }, out);
    case 'show-failed':
      return show({ paths, failed: true }, out);
    case 'sql':
      return sql({ paths, query: arg }, out);
    case 'report':
      return report({ paths, out: arg }, out);
    case 'convert':
      return convert({ paths, to: 'otlp-json', out: arg }, out);
    case 'push':
      // to a collector, e.g. bench/support/otlp-sink.mjs (which answers every export and keeps nothing)
      return push({ paths, endpoint: arg }, out);
    case 'top':
      // one frame of what the files hold (`--once`): from the store, converting first what it lacks
      return top({ paths, once: true }, out);
    default:
      throw new Error(`unknown command ${command}`);
  }
})();
const cpu = process.cpuUsage(c0);
const processCpu = process.cpuUsage();
console.log(
  JSON.stringify({
    command,
    code,
    wallMs: performance.now() - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    processWallMs: performance.now(),
    processCpuMs: (processCpu.user + processCpu.system) / 1000,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
  }),
);

// What DuckDB does alone: read_json of the same files with the span record's columns, written
// as Parquet, with the memory limit and threads the store uses.
/** @param {string} into */
async function plainConversion(into) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const files = (await expandPaths(paths)).map((f) => `'${f.path}'`).join(', ');
  // without insertion order: with it, DuckDB alone runs out of its 512MB over 5M spans' files at once
  const instance = await DuckDBInstance.create(':memory:', { memory_limit: '512MB', preserve_insertion_order: 'false' });
  const c = await instance.connect();
  const columns = `{type: 'VARCHAR', trace_id: 'VARCHAR', span_id: 'VARCHAR', parent_span_id: 'VARCHAR', name: 'VARCHAR', kind: 'VARCHAR', start_time_unix_nano: 'VARCHAR', end_time_unix_nano: 'VARCHAR', status: 'JSON', attributes: 'JSON', events: 'JSON', resource: 'JSON'}`;
  await c.run(
    `COPY (SELECT * FROM read_json([${files}], format = 'newline_delimited', ignore_errors = true, columns = ${columns}) WHERE type = 'span') TO '${join(into, 'plain.parquet')}' (FORMAT parquet, COMPRESSION zstd)`,
  );
  c.closeSync();
  instance.closeSync();
  return 0;
}

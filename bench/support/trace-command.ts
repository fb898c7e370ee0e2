// Runs one `gym trace` command in this process and prints its wall time, CPU time and peak RSS as
// JSON (a fresh process per command, so the peak is the command's own).
// Run: node --conditions=source --import tsx bench/support/trace-command.ts <command> <dir> [arg]
import { anomalies, report, show, sql, stats, why } from '@gym/trace';
import type { CommandOutput } from '@gym/trace';

const [command, dir, arg] = process.argv.slice(2);
if (command === undefined || dir === undefined) throw new Error('usage: trace-command.ts <stats|anomalies|why-all|show|sql|report> <dir> [rollout id | query | report file]');
const out: CommandOutput = { write: () => undefined, error: (t) => void process.stderr.write(t) };
const paths = [dir];
const t0 = performance.now();
const c0 = process.cpuUsage();
const code = await (() => {
  switch (command) {
    case 'stats':
      return stats({ paths }, out);
    case 'anomalies':
      return anomalies({ paths }, out);
    case 'why-all':
      return why({ paths, all: true }, out);
    case 'show':
      return show({ paths, rollout: arg! }, out);
    case 'sql':
      return sql({ paths, query: arg! }, out);
    case 'report':
      return report({ paths, out: arg! }, out);
    default:
      throw new Error(`unknown command ${command}`);
  }
})();
const cpu = process.cpuUsage(c0);
console.log(JSON.stringify({ command, code, wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));

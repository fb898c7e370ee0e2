// node /tmp/show-dump.mjs <dir> <list|failed> <text|json> <outfile>
import { writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { show } from '@gym/trace';
const [dir, mode, format, file] = process.argv.slice(2);
const fd = openSync(file, 'w');
const code = await show({ paths: [dir], failed: mode === 'failed', format, width: 200 }, { write: (t) => void writeSync(fd, t), error: (t) => void process.stderr.write(t) });
closeSync(fd);
console.log(JSON.stringify({ code, maxRssMiB: process.resourceUsage().maxRSS / 1024, cpuS: (process.cpuUsage().user + process.cpuUsage().system) / 1e6 }));

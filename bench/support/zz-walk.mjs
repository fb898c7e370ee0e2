import { readInBatches } from '../../packages/trace/dist/commands/load-batches.js';
const c0 = process.cpuUsage();
let n = 0, r = 0;
await readInBatches({ paths: [process.argv[2]] }, { write: () => {}, error: (t) => process.stderr.write(t) }, (b) => { n++; r += b.rollouts.length; });
const c = process.cpuUsage(c0);
console.log(JSON.stringify({ batches: n, rollouts: r, cpuS: (c.user + c.system) / 1e6, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));

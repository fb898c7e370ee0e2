import { scanRange } from './src/store/scan-range.js';
const f = process.argv[2]!;
const { size } = await import('node:fs').then((m) => m.statSync(f));
const t = process.cpuUsage(); const w = performance.now();
const r = await scanRange(f, 0, size);
const d = process.cpuUsage(t);
console.log(r, ((d.user + d.system) / 1e6).toFixed(2), 'cpu', (d.system / 1e6).toFixed(2), 'sys', ((performance.now() - w) / 1e3).toFixed(2), 'wall');

// Counts garbage collections while a loop runs: zero minor GCs over ten million calls means the
// call allocates nothing measurable (the young generation would fill after a few bytes per call).
import { PerformanceObserver, constants } from 'node:perf_hooks';

export async function countGcs(label: string, iterations: number, body: () => void): Promise<void> {
  let minor = 0;
  let major = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
      else major++;
    }
  });
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setImmediate(resolve));
  observer.observe({ entryTypes: ['gc'] });
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < iterations; i++) body();
  const grown = process.memoryUsage().heapUsed - before;
  await new Promise((resolve) => setImmediate(resolve));
  observer.disconnect();
  console.log(`${label}: ${iterations.toLocaleString('en')} calls, ${minor} minor GC, ${major} major GC, heap grew ${(grown / 1024).toFixed(1)} KiB`);
}

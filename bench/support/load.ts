// A closed-loop load generator: `concurrency` workers each POST the next request as soon as the
// previous answered, for `durationMs` after a warm-up. Bounded in time and count; loopback only.
import { Pool } from 'undici';

export interface LoadResult {
  completed: number;
  errors: number;
  seconds: number;
  perSecond: number;
}

export async function runLoad(url: string, body: string, options: { concurrency: number; durationMs: number; warmupMs?: number; headers?: Record<string, string> }): Promise<LoadResult> {
  const target = new URL(url);
  const pool = new Pool(target.origin, { connections: options.concurrency, pipelining: 1 });
  let completed = 0;
  let errors = 0;
  let counting = false;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      try {
        const res = await pool.request({ method: 'POST', path: target.pathname, headers: { 'content-type': 'application/json', ...options.headers }, body });
        await res.body.text();
        if (counting && res.statusCode === 200) completed++;
        else if (counting) errors++;
      } catch {
        if (counting) errors++;
      }
    }
  };
  const workers = Array.from({ length: options.concurrency }, worker);
  await new Promise((r) => setTimeout(r, options.warmupMs ?? 1000));
  counting = true;
  const started = performance.now();
  await new Promise((r) => setTimeout(r, options.durationMs));
  counting = false;
  const seconds = (performance.now() - started) / 1000;
  stop = true;
  await Promise.all(workers);
  await pool.close();
  return { completed, errors, seconds, perSecond: completed / seconds };
}

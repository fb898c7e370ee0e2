// Writes fixture spans in the lean console record of the console record contract: a
// `{"type":"resource",…}` record once per stream (and again when the resource changes), and span
// lines that carry their process's identity (service.name, and service.instance.id or
// process.pid) instead of a resource block, without the ISO times.
import { consoleLine, filesByService } from './fixtures.js';
import type { FixtureSpan } from './fixtures.js';

/** The resource record of a process. */
export function resourceLine(service: string, pid: number, attributes: Record<string, unknown> = { 'nemo.run.id': 'run1' }): string {
  return JSON.stringify({ type: 'resource', 'service.name': service, 'process.pid': pid, attributes: { 'service.name': service, ...attributes } });
}

/** The lean line of `s`, written by process `pid`. */
export function leanLine(s: FixtureSpan, pid: number): string {
  const full = JSON.parse(consoleLine(s)) as Record<string, unknown>;
  delete full['resource'];
  delete full['start_time'];
  delete full['end_time'];
  return JSON.stringify({ ...full, 'service.name': s.service, 'process.pid': pid });
}

/**
 * The files of a run in the lean record, one per service as `filesByService` names them: each
 * file's resource records first (one per service in it), then its spans. The spans of each file are written by two
 * processes (two workers sharing a stdout) when `twoWorkers`: every other line by pid 2, whose
 * resource record comes first too.
 */
export function leanFiles(spans: FixtureSpan[], twoWorkers = false): Record<string, string> {
  const byFile = filesByService(spans);
  const out: Record<string, string> = {};
  for (const [file, lines] of Object.entries(byFile)) {
    const fileSpans = lines.map((l) => spans.find((s) => consoleLine(s) === l)!);
    const services = [...new Set(fileSpans.map((s) => s.service))];
    const head = services.flatMap((service) => [resourceLine(service, 1), ...(twoWorkers ? [resourceLine(service, 2)] : [])]);
    out[file] = [...head, ...fileSpans.map((s, i) => leanLine(s, twoWorkers && i % 2 === 1 ? 2 : 1))].join('\n') + '\n';
  }
  return out;
}

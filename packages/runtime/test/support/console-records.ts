// Reads the console telemetry records (one JSON object per line) out of every log file of a run.
// A file states each process's resource once (a `"type":"resource"` record); every later line
// carries its process's identity, and is given here the `resource` its file stated for it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsoleResourceRecord, ConsoleSpanRecord } from '@gym/names';

/** A span record as written (@gym/names), given the resource its file stated for its process. */
export type SpanLine = ConsoleSpanRecord & { resource: { attributes: Record<string, unknown> } };

export interface MetricLine {
  type: 'metric';
  name: string;
  unit: string;
  [key: string]: unknown;
}

/** A resource record: the resource of the process whose identity it names. */
export type ResourceLine = ConsoleResourceRecord;

// what a line is joined to its resource record by: service.name, and the instance id or else the pid
function identityOf(record: Record<string, unknown>): string {
  const instance = record['service.instance.id'];
  return `${String(record['service.name'])}|${instance === undefined ? `pid ${String(record['process.pid'])}` : `instance ${String(instance)}`}`;
}

export function readRecords(logDir: string): {
  spans: SpanLine[];
  metrics: MetricLine[];
  logs: Array<Record<string, unknown>>;
  resources: ResourceLine[];
  byFile: Record<string, SpanLine[]>;
} {
  const spans: SpanLine[] = [];
  const metrics: MetricLine[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const resources: ResourceLine[] = [];
  const byFile: Record<string, SpanLine[]> = {};
  for (const file of readdirSync(logDir).filter((f) => f.endsWith('.log'))) {
    byFile[file] = [];
    const stated = new Map<string, Record<string, unknown>>();
    for (const line of readFileSync(join(logDir, file), 'utf8').split('\n')) {
      if (!line.startsWith('{"type":')) continue;
      const record = JSON.parse(line) as Record<string, unknown> & { type: string };
      if (record.type === 'resource') {
        resources.push(record as unknown as ResourceLine);
        stated.set(identityOf(record), (record as unknown as ResourceLine).attributes);
        continue;
      }
      record['resource'] ??= { attributes: stated.get(identityOf(record)) ?? {} };
      if (record.type === 'span') {
        spans.push(record as unknown as SpanLine);
        byFile[file].push(record as unknown as SpanLine);
      } else if (record.type === 'metric') metrics.push(record as unknown as MetricLine);
      else if (record.type === 'log') logs.push(record);
    }
  }
  return { spans, metrics, logs, resources, byFile };
}

/** The spans of one trace as an indented tree of `name [service]` lines, children by start time. */
export function treeLines(spans: SpanLine[], traceId: string, service = (s: SpanLine) => String(s.resource.attributes['service.name']).replace('nemo-gym/', '')): string[] {
  const inTrace = spans.filter((s) => s.trace_id === traceId);
  const ids = new Set(inTrace.map((s) => s.span_id));
  const children = new Map<string | null, SpanLine[]>();
  for (const s of inTrace) {
    const parent = s.parent_span_id !== null && ids.has(s.parent_span_id) ? s.parent_span_id : null;
    children.set(parent, [...(children.get(parent) ?? []), s]);
  }
  const out: string[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const s of (children.get(parent) ?? []).sort((a, b) => (BigInt(a.start_time_unix_nano) < BigInt(b.start_time_unix_nano) ? -1 : 1))) {
      out.push(`${'  '.repeat(depth)}${s.name} [${service(s)}]`);
      walk(s.span_id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

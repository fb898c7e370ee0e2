// Builds console-shaped span lines (format: docs/lens-setup.md, "console") for realistic rollouts, and writes them to temp dirs.
import type { SpanRecord } from '../../src/span-record.js';
import { fromConsoleSpan } from '../../src/read/console-span.js';
import { ResourceCache } from '../../src/read/resource-cache.js';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const AGENT = 'nemo-gym/simple_agent';
export const MODEL = 'nemo-gym/policy_model';
export const RESOURCES = 'nemo-gym/weather';
export const DRIVER = 'nemo-gym/rollout_collection';

/** Base instant of every fixture: 2026-01-01T00:00:00Z in ns. */
export const BASE_NS = 1_767_225_600_000_000_000n;

export interface FixtureSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: 'INTERNAL' | 'SERVER' | 'CLIENT';
  service: string;
  /** Milliseconds after BASE_NS. */
  startMs: number;
  endMs: number;
  attributes?: Record<string, unknown>;
  status?: { code: string; message?: string | null };
  events?: Array<{ name: string; time: string; attributes: Record<string, unknown> }>;
  links?: Array<{ trace_id: string; span_id: string; attributes: Record<string, unknown> }>;
}

let counter = 0;
export function nextId(bytes: 8 | 16): string {
  counter++;
  return createHash('sha256')
    .update(`${bytes}:${counter}`)
    .digest('hex')
    .slice(0, bytes * 2);
}

export function msToNs(ms: number): bigint {
  return BASE_NS + BigInt(Math.round(ms * 1e6));
}

function iso(ns: bigint): string {
  const d = new Date(Number(ns / 1_000_000n)).toISOString();
  return `${d.slice(0, 19)}.${(ns % 1_000_000_000n).toString().padStart(9, '0')}Z`;
}

/** One console record line for `s`. */
export function consoleLine(s: FixtureSpan): string {
  const start = msToNs(s.startMs);
  const end = msToNs(s.endMs);
  return JSON.stringify({
    type: 'span',
    trace_id: s.traceId,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId,
    name: s.name,
    kind: s.kind,
    start_time: iso(start),
    end_time: iso(end),
    start_time_unix_nano: start.toString(),
    end_time_unix_nano: end.toString(),
    duration_ms: s.endMs - s.startMs,
    status: s.status ?? { code: 'UNSET', message: null },
    attributes: s.attributes ?? {},
    events: s.events ?? [],
    links: s.links ?? [],
    resource: { attributes: { 'service.name': s.service, 'nemo.run.id': 'run1' } },
    scope: { name: 'nemo.gym', version: '0.1.0' },
  });
}

export interface RolloutFixtureOptions {
  rolloutId: string;
  traceId?: string;
  /** Offset of the whole rollout, ms. */
  atMs?: number;
  /** Parent of the agent's `POST /run` span (a driver CLIENT span in the `default` preset). */
  parentSpanId?: string | null;
  reward?: number;
  /** Drop the verify call (for anomaly tests). */
  noVerify?: boolean;
}

/**
 * One rollout, times relative to `atMs` (ms):
 * POST /run 0–1000 > gym.rollout 1–999 > [HTTP POST 5–605 > POST /v1/responses 10–600 > gym.model.responses 12–598],
 * [HTTP POST 610–710 > POST /get_weather 615–700], [HTTP POST 720–990 > POST /verify 730–985 > gym.verify 732–983].
 */
export function rolloutSpans(o: RolloutFixtureOptions): FixtureSpan[] {
  const t = o.traceId ?? nextId(16);
  const at = o.atMs ?? 0;
  const rid = { 'nemo.gym.rollout.id': o.rolloutId };
  const span = (name: string, kind: FixtureSpan['kind'], service: string, parent: string | null, s: number, e: number, attributes: Record<string, unknown> = {}): FixtureSpan => ({
    traceId: t,
    spanId: nextId(8),
    parentSpanId: parent,
    name,
    kind,
    service,
    startMs: at + s,
    endMs: at + e,
    attributes,
  });
  const run = span('POST /run', 'SERVER', AGENT, o.parentSpanId ?? null, 0, 1000, { 'http.route': '/run', 'http.request.method': 'POST' });
  const rollout = span('gym.rollout', 'INTERNAL', AGENT, run.spanId, 1, 999, { 'nemo.gym.server.name': 'simple_agent', ...rid });
  const c1 = span('HTTP POST', 'CLIENT', AGENT, rollout.spanId, 5, 605, { 'http.request.method': 'POST', 'url.full': 'http://127.0.0.1:9001/v1/responses', ...rid });
  const s1 = span('POST /v1/responses', 'SERVER', MODEL, c1.spanId, 10, 600, { 'http.route': '/v1/responses' });
  const m1 = span('gym.model.responses', 'INTERNAL', MODEL, s1.spanId, 12, 598, { 'gen_ai.request.model': 'qwen3-8b', 'gen_ai.usage.input_tokens': 120, 'gen_ai.usage.output_tokens': 45, ...rid });
  const c2 = span('HTTP POST', 'CLIENT', AGENT, rollout.spanId, 610, 710, { 'url.full': 'http://127.0.0.1:9002/get_weather', ...rid });
  const s2 = span('POST /get_weather', 'SERVER', RESOURCES, c2.spanId, 615, 700, { 'http.route': '/get_weather' });
  const out = [run, rollout, c1, s1, m1, c2, s2];
  if (!o.noVerify) {
    const c3 = span('HTTP POST', 'CLIENT', AGENT, rollout.spanId, 720, 990, { 'url.full': 'http://127.0.0.1:9002/verify', ...rid });
    const s3 = span('POST /verify', 'SERVER', RESOURCES, c3.spanId, 730, 985, { 'http.route': '/verify' });
    const v = span('gym.verify', 'INTERNAL', RESOURCES, s3.spanId, 732, 983, { 'gym.verify.reward': o.reward ?? 1, ...rid });
    out.push(c3, s3, v);
  }
  return out;
}

/** Console lines per service file name (`agent.log`, `model.log`, `resources.log`, `driver.log`). */
export function filesByService(spans: FixtureSpan[]): Record<string, string[]> {
  const name: Record<string, string> = { [AGENT]: 'agent.log', [MODEL]: 'model.log', [RESOURCES]: 'resources.log', [DRIVER]: 'driver.log' };
  const out: Record<string, string[]> = {};
  for (const s of spans) (out[name[s.service] ?? 'other.log'] ??= []).push(consoleLine(s));
  return out;
}

/** A temp dir with `files` (relative path → content); `cleanup()` removes it. */
export function tempDir(files: Record<string, string> = {}): { dir: string; path: (p: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'gym-trace-test-'));
  for (const [p, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  return { dir, path: (p) => join(dir, p), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes the spans as three per-service log files mixed with ordinary log lines and pino lines. */
export function writeRunLogs(spans: FixtureSpan[], extraLines = true): { dir: string; path: (p: string) => string; cleanup: () => void } {
  const files: Record<string, string> = {};
  for (const [file, lines] of Object.entries(filesByService(spans))) {
    const mixed = extraLines
      ? [
          'INFO:     Started server process [4242]',
          JSON.stringify({ level: 30, time: 1767225600000, msg: 'listening', pid: 1 }),
          ...lines,
          '',
          'INFO:     127.0.0.1:5000 - "POST /run HTTP/1.1" 200 OK',
        ]
      : lines;
    files[file] = mixed.join('\n') + '\n';
  }
  return tempDir(files);
}

/** Writes a default-preset run: one trace, `gym.job` → driver CLIENT per rollout → rollouts. */
export function defaultPresetSpans(rolloutIds: string[]): FixtureSpan[] {
  const traceId = nextId(16);
  const job: FixtureSpan = { traceId, spanId: nextId(8), parentSpanId: null, name: 'gym.job', kind: 'INTERNAL', service: DRIVER, startMs: -10, endMs: 5000 };
  const out = [job];
  rolloutIds.forEach((rolloutId, i) => {
    const client: FixtureSpan = { traceId, spanId: nextId(8), parentSpanId: job.spanId, name: 'HTTP POST', kind: 'CLIENT', service: DRIVER, startMs: i * 100 - 1, endMs: i * 100 + 1001 };
    out.push(client, ...rolloutSpans({ rolloutId, traceId, atMs: i * 100, parentSpanId: client.spanId }));
  });
  return out;
}

/**
 * A `default`-preset run as gym writes it now: `gym.job` a trace of its own, and each rollout a
 * trace whose first span (the driver's call to `/run`) links to the job and names the run.
 */
export function linkedRolloutSpans(rolloutIds: string[]): FixtureSpan[] {
  const job: FixtureSpan = { traceId: nextId(16), spanId: nextId(8), parentSpanId: null, name: 'gym.job', kind: 'INTERNAL', service: DRIVER, startMs: -10, endMs: 5000 };
  const out = [job];
  rolloutIds.forEach((rolloutId, i) => {
    const traceId = nextId(16);
    const client: FixtureSpan = {
      traceId,
      spanId: nextId(8),
      parentSpanId: null,
      name: 'HTTP POST',
      kind: 'CLIENT',
      service: DRIVER,
      startMs: i * 100 - 1,
      endMs: i * 100 + 1001,
      attributes: { 'nemo.gym.rollout.id': rolloutId, 'gym.run.id': 'run1' },
      links: [{ trace_id: job.traceId, span_id: job.spanId, attributes: {} }],
    };
    out.push(client, ...rolloutSpans({ rolloutId, traceId, atMs: i * 100, parentSpanId: client.spanId }));
  });
  return out;
}

/** Converts fixture spans to SpanRecords in memory, through the console-record converter. */
export function toRecords(spans: FixtureSpan[]): SpanRecord[] {
  const cache = new ResourceCache();
  return spans.map((s, i) => {
    const r = fromConsoleSpan(JSON.parse(consoleLine(s)) as Record<string, unknown>, { file: 'mem', line: i + 1 }, cache);
    if (typeof r === 'string') throw new Error(r);
    return r;
  });
}

/** A bare span for hand-built trees (ms after BASE_NS). */
export function bare(name: string, spanId: string, parentSpanId: string | null, startMs: number, endMs: number, extra: Partial<FixtureSpan> = {}): FixtureSpan {
  return { traceId: 'c'.repeat(32), spanId, parentSpanId, name, kind: 'INTERNAL', service: AGENT, startMs, endMs, ...extra };
}

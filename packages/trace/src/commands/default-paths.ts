/**
 * Where to read when no paths are given: the newest run directory under `.gym/logs/` that holds
 * spans. Newest by what the run is — `latest` (moved at each run's start), then its start time (the
 * run manifest gym writes at the start, else the time its directory is named after) — never by
 * modification time, which a trace store written into an older run would change. A run without telemetry (the plain `gym eval run`) moves `latest` but has
 * nothing to show, so it is passed over. Every command says which run it read, on stderr.
 * @module
 */
import { open, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { RUN_MANIFEST_FILE } from '@gym/names';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import type { CommandOutput } from './output.js';

/** The log root `gym env start` writes to, relative to the working directory. */
export const DEFAULT_LOG_ROOT = join('.gym', 'logs');

/** The whole switch that makes a gym run write spans where `gym trace` finds them. */
export const CONSOLE_TELEMETRY_SWITCH = 'NEMO_GYM_OTEL_ENABLED=1 NEMO_GYM_OTEL_EXPORTER=console';

// How a span record starts in each format read: gym's console lines, the Python SDK's, OTLP/JSON.
const SPAN_MARKERS = ['"type":"span"', '"span_id"', '"spanId"'].map((m) => Buffer.from(m));
const CHUNK_BYTES = 1024 * 1024;

// the outputs already told which run they read: a command that resolves its paths twice says it once
const told = new WeakSet<Pick<CommandOutput, 'error'>>();

/**
 * Returns `paths` when non-empty. Otherwise the newest run directory of `<cwd>/.gym/logs` that
 * holds spans (see the module's note), telling `out` on its error stream which one and how many
 * newer runs had none; else `.gym/logs` itself when it holds span files.
 * @throws TraceUserError `GYM_TRACE_NO_PATHS` when there is nothing to read, `GYM_TRACE_NO_SPANS`
 * when no run has spans.
 */
export async function resolvePaths(paths: readonly string[] | undefined, cwd: string = process.cwd(), out?: Pick<CommandOutput, 'error'>): Promise<string[]> {
  if (paths !== undefined && paths.length > 0) return [...paths];
  const onChoice = (note: string): void => {
    if (out === undefined || told.has(out)) return;
    told.add(out);
    out.error(`${note}\n`);
  };
  const root = join(cwd, DEFAULT_LOG_ROOT);
  const entries = await readdir(root, { withFileTypes: true }).catch(() => null);
  if (entries === null || entries.length === 0) {
    throw new TraceUserError(
      TRACE_ERROR_CODES.noPaths,
      `No paths given and no logs under ${DEFAULT_LOG_ROOT} in ${cwd}. Run with telemetry on (${CONSOLE_TELEMETRY_SWITCH} gym eval run …), or pass the files or directories holding console telemetry or OTLP/JSON, e.g. \`gym trace show server-logs/\`.`,
    );
  }
  const runs = await runsNewestFirst(
    root,
    // what gym trace keeps beside the runs (a store of `.gym/logs` itself) is not a run
    entries.filter((e) => e.isDirectory() && e.name !== 'latest' && !e.name.startsWith('.')).map((e) => e.name),
  );
  for (let i = 0; i < runs.length; i++) {
    const run = runs[i]!;
    if (!(await holdsSpans(run))) continue;
    const skipped = i === 0 ? '' : `; the ${i} newer run${i === 1 ? ' has' : 's have'} no spans`;
    onChoice(`reading ${relative(cwd, run) || run} (the newest run with spans${skipped})`);
    return [run];
  }
  if (await holdsSpans(root)) {
    onChoice(`reading ${relative(cwd, root) || root} (no run directory under it has spans)`);
    return [root];
  }
  throw new TraceUserError(
    TRACE_ERROR_CODES.noSpans,
    `No run under ${DEFAULT_LOG_ROOT} in ${cwd} has spans (${runs.length} run${runs.length === 1 ? '' : 's'} looked at): they ran without console telemetry. ` +
      `Run with ${CONSOLE_TELEMETRY_SWITCH} (or ++telemetry.enabled=true ++telemetry.exporter=console), or pass the files to read.`,
  );
}

// `20260101T000000Z`, `-<n>` added for a second run started in the same second (orchestrator/log-dir.ts)
const RUN_NAME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z(?:-(\d+))?$/;

/** When the run in `dir` started (ms): its manifest's `started_at`, else the time its name says; null when neither does. */
async function runStartOf(dir: string, name: string): Promise<{ ms: number; seq: number } | null> {
  const named = startNamed(name);
  const text = await readFile(join(dir, RUN_MANIFEST_FILE), 'utf8').catch(() => null);
  if (text === null) return named;
  let started = NaN;
  try {
    started = Date.parse(String((JSON.parse(text) as { started_at?: unknown }).started_at));
  } catch {
    // a damaged manifest: the name still tells
  }
  return Number.isNaN(started) ? named : { ms: started, seq: named?.seq ?? 1 };
}

/** When the run of directory `name` started (ms), and its place among runs of the same second; null for another name. */
function startNamed(name: string): { ms: number; seq: number } | null {
  const m = RUN_NAME.exec(name);
  if (m === null) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  return Number.isNaN(ms) ? null : { ms, seq: m[7] === undefined ? 1 : Number(m[7]) };
}

/**
 * Run directories newest first: `latest`'s target (gym moves it at each run's start), then the runs
 * by their start time, then directories that say none by modification time.
 */
async function runsNewestFirst(root: string, names: string[]): Promise<string[]> {
  const starts = await Promise.all(names.map(async (n) => ({ path: join(root, n), start: await runStartOf(join(root, n), n) })));
  const named = starts.flatMap((r) => (r.start === null ? [] : [{ path: r.path, ...r.start }]));
  named.sort((a, b) => b.ms - a.ms || b.seq - a.seq);
  const others = await Promise.all(starts.filter((r) => r.start === null).map(async (r) => ({ path: r.path, mtimeMs: (await stat(r.path)).mtimeMs })));
  others.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const sorted = [...named.map((r) => r.path), ...others.map((r) => r.path)];
  const latest = await realpath(join(root, 'latest')).catch(() => null);
  if (latest === null || (await stat(latest).catch(() => null))?.isDirectory() !== true) return sorted;
  return [latest, ...sorted.filter((p) => p !== latest)];
}

/** True when a file directly in `dir` holds a span record (read until the first one). */
async function holdsSpans(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) if (e.isFile() && (await fileHoldsSpan(join(dir, e.name)))) return true;
  return false;
}

async function fileHoldsSpan(path: string): Promise<boolean> {
  const file = await open(path, 'r').catch(() => null);
  if (file === null) return false;
  try {
    const overlap = Math.max(...SPAN_MARKERS.map((m) => m.length));
    const buffer = Buffer.alloc(CHUNK_BYTES + overlap);
    let kept = 0;
    for (let position = 0; ;) {
      const { bytesRead } = await file.read(buffer, kept, CHUNK_BYTES, position);
      if (bytesRead === 0) return false;
      position += bytesRead;
      const filled = buffer.subarray(0, kept + bytesRead);
      if (SPAN_MARKERS.some((m) => filled.includes(m))) return true;
      kept = Math.min(overlap, filled.length);
      filled.copy(buffer, 0, filled.length - kept);
    }
  } finally {
    await file.close();
  }
}

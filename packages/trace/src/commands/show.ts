/**
 * `gym trace show`: the tree picture of one rollout or trace, the slowest or failed ones, or a
 * list of rollouts when nothing is selected.
 * @module
 */
import { connectionsLabel, connectionsOf } from '../analyze/cold-start.js';
import type { RolloutConnections } from '../analyze/cold-start.js';
import { buildSpanTree } from '../analyze/span-tree.js';
import { isFailed, verdictOf } from '../analyze/verdict.js';
import type { RolloutVerdict } from '../analyze/verdict.js';
import { findTrace, lookupId } from '../assemble/find.js';
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findJobs } from '../assemble/jobs.js';
import type { RunJob } from '../assemble/jobs.js';
import { outermostOf, subtree } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { SpanNode, Trace } from '../assemble/trace-model.js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { SPAN } from '../span-record.js';
import { displayService, formatMs, markdownTable, textTable, toJson, wrapProse } from '../render/format.js';
import { renderTreeMarkdown, renderTreeText, treeToJson } from '../render/tree.js';
import { findEvidence, readEvidence } from '../evidence/rollout-evidence.js';
import { renderEvidence } from '../render/evidence.js';
import { loadRolloutPartition, loadTracePartition, slowestRolloutIds } from './load-rollout.js';
import { loadTelemetry } from './load.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import { showLargeRun } from './show-large.js';
import type { CommandOutput, OutputFormat } from './output.js';

/** Options of {@link show}. At most one of `rollout`, `trace`, `slowest`, `failed`. */
export interface ShowOptions extends InputOptions {
  rollout?: string;
  trace?: string;
  slowest?: number;
  failed?: boolean;
  format?: OutputFormat;
  color?: boolean;
  /** Columns the text may take (the terminal's); none: as wide as the content. */
  width?: number;
  /** Rows per tree at most (default 500). */
  maxSpans?: number;
  /** Rollouts JSONL files whose rollout evidence is shown under each rollout. */
  evidence?: string[];
}

/** What one tree of `show` draws. */
export interface View {
  title: string;
  roots: SpanNode[];
  rolloutId: string | null;
  traceId: string;
  verdict: RolloutVerdict | null;
}

/** Rollouts (or traces) the list shows at most; `--format json` lists every one. */
export const LIST_LIMIT = 50;

/** Runs `show`; returns the exit code (0, or 2 for bad input). */
export async function show(options: ShowOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    const selectors = [options.rollout, options.trace, options.slowest, options.failed || undefined].filter((v) => v !== undefined);
    if (selectors.length > 1) throw new TraceUserError(TRACE_ERROR_CODES.badOption, 'Pass at most one of --rollout, --trace, --slowest, --failed.');
    if (options.slowest !== undefined && (!Number.isInteger(options.slowest) || options.slowest < 1))
      throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--slowest takes a positive integer, got ${options.slowest}.`);
    // a large run: the list and the failed walked in batches, not read whole
    if (options.rollout === undefined && options.trace === undefined && options.slowest === undefined && (await showLargeRun(options, out))) return 0;
    // a large run: the slowest found in SQL and each read as `--rollout` reads one, not the whole run
    const slowest = options.slowest === undefined ? null : await slowestRolloutIds(options, options.slowest, out);
    const part = options.rollout !== undefined ? await loadRolloutPartition(options, options.rollout, out) : options.trace !== undefined ? await loadTracePartition(options, options.trace, out) : null;
    const { set, rollouts, stats } = slowest !== null ? EMPTY : part === null ? await loadTelemetry(options, out) : { ...part, stats: null };
    const format = options.format ?? 'text';
    let views: View[];
    if (slowest !== null) views = await slowestViews(options, slowest, out);
    else if (options.rollout !== undefined) {
      const hit = lookupId(set, rollouts, options.rollout);
      views = [hit.type === 'rollout' ? rolloutView(hit.rollout) : traceView(hit.trace)];
    } else if (options.trace !== undefined) {
      const trace = findTrace(set, options.trace);
      views = [
        traceView(
          trace,
          findJobs(set, rollouts).find((j) => j.trace === trace),
        ),
      ];
    } else if (options.slowest !== undefined) {
      views =
        rollouts.length > 0
          ? [...rollouts]
              .sort((a, b) => b.node.span.durationMs - a.node.span.durationMs)
              .slice(0, options.slowest)
              .map(rolloutView)
          : [...set.traces.values()]
              .sort((a, b) => b.durationMs - a.durationMs)
              .slice(0, options.slowest)
              .map((t) => traceView(t));
    } else if (options.failed === true) {
      views = rollouts.length > 0 ? rollouts.filter((r) => isFailed(verdictOf(r))).map(rolloutView) : [...set.traces.values()].filter((t) => hasError(t.roots)).map((t) => traceView(t));
      if (views.length === 0) {
        out.write(format === 'json' ? toJson({ type: 'show', views: [] }) : 'No failed rollouts or traces.\n');
        return 0;
      }
    } else if (rollouts.length === 1) views = [rolloutView(rollouts[0]!)];
    else if (rollouts.length === 0 && set.traces.size === 1) views = [traceView([...set.traces.values()][0]!)];
    else {
      out.write(renderList(rollouts, [...set.traces.values()], findJobs(set, rollouts), format, stats?.spans ?? set.spanCount, options.width));
      return 0;
    }
    const style = viewStyle(options);
    if (format === 'json') {
      out.write(toJson({ type: 'show', views: views.map((v) => viewJson(v, style)) }));
      return 0;
    }
    out.write(views.map((v) => viewText(v, style)).join('\n'));
    return 0;
  });
}

/** How the views of one `show` are drawn. */
export interface ViewStyle {
  format: OutputFormat;
  maxRows: number;
  color: boolean;
  width: number | undefined;
  evidence: ReturnType<typeof readEvidence> | undefined;
}

/** The style of `options` (reading the evidence files it names). */
export function viewStyle(options: ShowOptions): ViewStyle {
  return {
    format: options.format ?? 'text',
    maxRows: options.maxSpans ?? 500,
    color: options.color ?? false,
    width: options.width,
    evidence: options.evidence === undefined || options.evidence.length === 0 ? undefined : readEvidence(options.evidence),
  };
}

/** A view as `--format json` lists it. */
export function viewJson(v: View, style: ViewStyle): object {
  const { evidence } = style;
  return {
    rollout_id: v.rolloutId,
    trace_id: v.traceId,
    reward: v.verdict?.reward ?? null,
    verdict: v.verdict,
    tree: treeToJson(buildSpanTree(v.roots, { maxRows: style.maxRows })),
    ...(evidence === undefined ? {} : { evidence: findEvidence(evidence, v) ?? null }),
  };
}

/** A view drawn as text or Markdown; the views of one `show` are joined by a newline. */
export function viewText(v: View, style: ViewStyle): string {
  const { evidence, format, width } = style;
  const render = format === 'markdown' ? renderTreeMarkdown : renderTreeText;
  return (
    render(buildSpanTree(v.roots, { maxRows: style.maxRows }), { color: style.color, title: v.title, ...(width === undefined ? {} : { width }) }) +
    (evidence === undefined ? '' : `\n${evidenceText(findEvidence(evidence, v), format, width)}`)
  );
}

/** What `show` reads nothing into: the views come from elsewhere. */
const EMPTY = { set: assembleTraces([]), rollouts: [] as Rollout[], stats: null };

/** The views of rollouts `ids`, each read from the store as `--rollout` reads one. */
async function slowestViews(options: ShowOptions, ids: readonly string[], out: CommandOutput): Promise<View[]> {
  const views: View[] = [];
  for (const id of ids) {
    const found = (await loadRolloutPartition(options, id, out))?.rollouts.find((r) => r.rolloutId === id);
    if (found !== undefined) views.push(rolloutView(found));
  }
  return views;
}

/** The view of a rollout, drawn from its outermost span: the collector's call around it when recorded. */
export function rolloutView(r: Rollout): View {
  return { title: `rollout ${r.rolloutId}  trace ${r.traceId}`, roots: [outermostOf(r)], rolloutId: r.rolloutId, traceId: r.traceId, verdict: verdictOf(r) };
}

// a run's job names the rollouts that belong to it: they are traces of their own, linked to it
export function traceView(t: Trace, job?: RunJob): View {
  const rollouts = job === undefined ? '' : `  ${SPAN.JOB} of ${job.rollouts} rollout${job.rollouts === 1 ? '' : 's'}`;
  return { title: `trace ${t.traceId}  ${t.nodes.size} spans  ${t.services.map(displayService).join(', ')}${rollouts}`, roots: t.roots, rolloutId: null, traceId: t.traceId, verdict: null };
}

/** True when a span under `roots` has the status ERROR (a failed trace of a run without rollouts). */
export function hasError(roots: SpanNode[]): boolean {
  return roots.some((r) => subtree(r).some((n) => n.span.status.code === 'ERROR'));
}

/** A rollout as the list's `--format json` gives it. */
export function rolloutEntry(r: Rollout): ListRollout {
  const verdict = verdictOf(r);
  const outermost = outermostOf(r);
  return {
    rollout_id: r.rolloutId,
    trace_id: r.traceId,
    duration_ms: r.node.span.durationMs,
    reward: verdict.reward,
    verdict,
    connections: connectionsOf(outermost),
    spans: subtree(outermost).length,
  };
}

/** A rollout of the list. */
export interface ListRollout {
  rollout_id: string;
  trace_id: string;
  duration_ms: number;
  reward: number | null;
  verdict: RolloutVerdict;
  connections: RolloutConnections;
  spans: number;
}

/** A trace of the list, from its parts: the names of its roots, its services sorted. */
export function listTrace(traceId: string, durationMs: number, spans: number, roots: string[], services: string[]): ListTrace {
  return { trace_id: traceId, duration_ms: durationMs, spans, roots, services };
}

/** A trace of the list. */
export interface ListTrace {
  trace_id: string;
  duration_ms: number;
  spans: number;
  roots: string[];
  services: string[];
}

/** A job of the list: its trace, its span, and the rollouts that belong to it. */
export function listJob(traceId: string, spanId: string, rollouts: number): ListJob {
  return { trace_id: traceId, span_id: spanId, rollouts };
}

/** A job of the list. */
export interface ListJob {
  trace_id: string;
  span_id: string;
  rollouts: number;
}

/** What the list's text says: the counts, the first {@link LIST_LIMIT} rollouts (or traces when there are none). */
export interface ListSummary {
  rollouts: number;
  traces: number;
  spans: number;
  jobs: ListJob[];
  /** Rollouts that opened new connections. */
  cold: number;
  /** The first rollouts, at most {@link LIST_LIMIT}. */
  firstRollouts: ListRollout[];
  /** The first traces, at most {@link LIST_LIMIT} (read when there are no rollouts). */
  firstTraces: ListTrace[];
}

function renderList(rollouts: Rollout[], traces: Trace[], jobs: RunJob[], format: OutputFormat, spanCount: number, width: number | undefined): string {
  const jobEntries = jobs.map((j) => listJob(j.trace.traceId, j.node.span.spanId, j.rollouts));
  const traceEntry = (t: Trace) =>
    listTrace(
      t.traceId,
      t.durationMs,
      t.nodes.size,
      t.roots.map((n) => n.span.name),
      t.services,
    );
  if (format === 'json') return toJson({ type: 'list', rollouts: rollouts.map(rolloutEntry), traces: traces.map(traceEntry), jobs: jobEntries });
  const first = rollouts.slice(0, LIST_LIMIT).map(rolloutEntry);
  return renderListSummary(
    {
      rollouts: rollouts.length,
      traces: traces.length,
      spans: spanCount,
      jobs: jobEntries,
      cold: rollouts.filter((r) => connectionsOf(outermostOf(r)).opened > 0).length,
      firstRollouts: first,
      firstTraces: rollouts.length > 0 ? [] : traces.slice(0, LIST_LIMIT).map(traceEntry),
    },
    format,
    width,
  );
}

/** The list as text or Markdown. */
export function renderListSummary(list: ListSummary, format: Exclude<OutputFormat, 'json'>, width: number | undefined): string {
  const text = format !== 'markdown';
  const table: typeof textTable = text ? (h, r, a, f = {}) => textTable(h, r, a, { ...f, ...(width === undefined ? {} : { maxWidth: width }), droppable: [6, 5], keep: [0, 1] }) : markdownTable;
  const prose = (t: string) => (text ? wrapProse(t, width) : t);
  const jobNote = list.jobs.map((j) => ` The run's job (${SPAN.JOB}, ${j.rollouts} rollout${j.rollouts === 1 ? '' : 's'}): --trace ${j.trace_id}.`).join('');
  const head = prose(`${list.rollouts} rollouts in ${list.traces} traces (${list.spans} spans). Pick one with --rollout ID, --trace ID, --slowest N or --failed.${jobNote}\n\n`);
  const rows =
    list.rollouts > 0
      ? list.firstRollouts.map((r) => [
          r.rollout_id,
          r.trace_id,
          formatMs(r.duration_ms),
          r.reward === null ? '-' : String(r.reward),
          VERDICT_TEXT[r.verdict.status],
          String(r.spans),
          connectionsLabel(r.connections, formatMs),
        ])
      : list.firstTraces.map((t) => [t.roots[0] ?? '-', t.trace_id, formatMs(t.duration_ms), '-', '-', String(t.spans), '-']);
  const total = list.rollouts > 0 ? list.rollouts : list.traces;
  const more = total > LIST_LIMIT ? `… ${total - LIST_LIMIT} more\n` : '';
  const cold = list.cold;
  const coldNote =
    cold === 0 ? '' : prose(`${cold} rollout${cold === 1 ? '' : 's'} opened new connections (cold start: the first rollouts of a run pay connection set-up; later ones reuse the connections).\n`);
  return head + table([list.rollouts > 0 ? 'rollout' : 'root span', 'trace', 'duration', 'reward', 'verdict', 'spans', 'connections'], rows, ['l', 'l', 'r', 'r', 'l', 'r', 'l']) + more + coldNote;
}

const VERDICT_TEXT: Record<RolloutVerdict['status'], string> = { ok: 'ok', error: 'error', incomplete: 'incomplete', no_verify: 'no verify' };

/** The evidence section, its text lines wrapped to the terminal (Markdown as it is). */
function evidenceText(evidence: Parameters<typeof renderEvidence>[0], format: OutputFormat, width: number | undefined): string {
  const text = renderEvidence(evidence, { markdown: format === 'markdown' });
  return format === 'markdown' ? text : wrapProse(text, width);
}

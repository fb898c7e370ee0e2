/**
 * What `show` draws and lists, whichever way the run was read (whole, or in batches by
 * `show-large.ts`): the tree views of rollouts and traces in text, Markdown or JSON, and the list
 * of a run's rollouts, traces and jobs.
 * @module
 */
import { connectionsLabel, connectionsOf } from '../analyze/cold-start.js';
import type { RolloutConnections } from '../analyze/cold-start.js';
import { buildSpanTree } from '../analyze/span-tree.js';
import { verdictOf } from '../analyze/verdict.js';
import type { RolloutVerdict } from '../analyze/verdict.js';
import type { RunJob } from '../assemble/jobs.js';
import { outermostOf, subtree } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { SpanNode, Trace } from '../assemble/trace-model.js';
import { SPAN } from '../span-record.js';
import { displayService, formatMs, markdownTable, textTable, toJson, wrapProse } from '../render/format.js';
import { renderTreeMarkdown, renderTreeText, treeToJson } from '../render/tree.js';
import { findEvidence, readEvidence } from '../evidence/rollout-evidence.js';
import { renderEvidence } from '../render/evidence.js';
import type { ShowOptions } from './show.js';
import type { OutputFormat } from './output.js';

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

/** The list of a run read whole. */
export function renderList(rollouts: Rollout[], traces: Trace[], jobs: RunJob[], format: OutputFormat, spanCount: number, width: number | undefined): string {
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

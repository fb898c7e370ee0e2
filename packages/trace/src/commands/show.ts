/**
 * `gym trace show`: the tree picture of one rollout or trace, the slowest or failed ones, or a
 * list of rollouts when nothing is selected.
 * @module
 */
import { connectionsLabel, connectionsOf } from '../analyze/cold-start.js';
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
import { loadRolloutPartition, slowestRolloutIds } from './load-rollout.js';
import { loadTelemetry } from './load.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
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

interface View {
  title: string;
  roots: SpanNode[];
  rolloutId: string | null;
  traceId: string;
  verdict: RolloutVerdict | null;
}

const LIST_LIMIT = 50;

/** Runs `show`; returns the exit code (0, or 2 for bad input). */
export async function show(options: ShowOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    const selectors = [options.rollout, options.trace, options.slowest, options.failed || undefined].filter((v) => v !== undefined);
    if (selectors.length > 1) throw new TraceUserError(TRACE_ERROR_CODES.badOption, 'Pass at most one of --rollout, --trace, --slowest, --failed.');
    if (options.slowest !== undefined && (!Number.isInteger(options.slowest) || options.slowest < 1))
      throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--slowest takes a positive integer, got ${options.slowest}.`);
    // a large run: the slowest found in SQL and each read as `--rollout` reads one, not the whole run
    const slowest = options.slowest === undefined ? null : await slowestRolloutIds(options, options.slowest, out);
    const part = options.rollout === undefined ? null : await loadRolloutPartition(options, options.rollout, out);
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
    const maxRows = options.maxSpans ?? 500;
    const evidence = options.evidence === undefined || options.evidence.length === 0 ? undefined : readEvidence(options.evidence);
    const evidenceOf = (v: View) => (evidence === undefined ? undefined : findEvidence(evidence, v));
    if (format === 'json') {
      out.write(
        toJson({
          type: 'show',
          views: views.map((v) => ({
            rollout_id: v.rolloutId,
            trace_id: v.traceId,
            reward: v.verdict?.reward ?? null,
            verdict: v.verdict,
            tree: treeToJson(buildSpanTree(v.roots, { maxRows })),
            ...(evidence === undefined ? {} : { evidence: evidenceOf(v) ?? null }),
          })),
        }),
      );
      return 0;
    }
    const render = format === 'markdown' ? renderTreeMarkdown : renderTreeText;
    out.write(
      views
        .map(
          (v) =>
            render(buildSpanTree(v.roots, { maxRows }), { color: options.color ?? false, title: v.title, ...(options.width === undefined ? {} : { width: options.width }) }) +
            (evidence === undefined ? '' : `\n${evidenceText(evidenceOf(v), format, options.width)}`),
        )
        .join('\n'),
    );
    return 0;
  });
}

// A rollout is drawn from its outermost span: the collector's call around it when recorded.
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

function rolloutView(r: Rollout): View {
  return { title: `rollout ${r.rolloutId}  trace ${r.traceId}`, roots: [outermostOf(r)], rolloutId: r.rolloutId, traceId: r.traceId, verdict: verdictOf(r) };
}

// a run's job names the rollouts that belong to it: they are traces of their own, linked to it
function traceView(t: Trace, job?: RunJob): View {
  const rollouts = job === undefined ? '' : `  ${SPAN.JOB} of ${job.rollouts} rollout${job.rollouts === 1 ? '' : 's'}`;
  return { title: `trace ${t.traceId}  ${t.nodes.size} spans  ${t.services.map(displayService).join(', ')}${rollouts}`, roots: t.roots, rolloutId: null, traceId: t.traceId, verdict: null };
}

function hasError(roots: SpanNode[]): boolean {
  return roots.some((r) => subtree(r).some((n) => n.span.status.code === 'ERROR'));
}

function renderList(rollouts: Rollout[], traces: Trace[], jobs: RunJob[], format: OutputFormat, spanCount: number, width: number | undefined): string {
  const verdicts = rollouts.map(verdictOf);
  const conns = rollouts.map((r) => connectionsOf(outermostOf(r)));
  if (format === 'json') {
    return toJson({
      type: 'list',
      rollouts: rollouts.map((r, i) => ({
        rollout_id: r.rolloutId,
        trace_id: r.traceId,
        duration_ms: r.node.span.durationMs,
        reward: verdicts[i]!.reward,
        verdict: verdicts[i],
        connections: conns[i],
        spans: subtree(outermostOf(r)).length,
      })),
      traces: traces.map((t) => ({ trace_id: t.traceId, duration_ms: t.durationMs, spans: t.nodes.size, roots: t.roots.map((n) => n.span.name), services: t.services })),
      jobs: jobs.map((j) => ({ trace_id: j.trace.traceId, span_id: j.node.span.spanId, rollouts: j.rollouts })),
    });
  }
  const text = format !== 'markdown';
  const table: typeof textTable = text ? (h, r, a, f = {}) => textTable(h, r, a, { ...f, ...(width === undefined ? {} : { maxWidth: width }), droppable: [6, 5], keep: [0, 1] }) : markdownTable;
  const prose = (t: string) => (text ? wrapProse(t, width) : t);
  const jobNote = jobs.map((j) => ` The run's job (${SPAN.JOB}, ${j.rollouts} rollout${j.rollouts === 1 ? '' : 's'}): --trace ${j.trace.traceId}.`).join('');
  const head = prose(`${rollouts.length} rollouts in ${traces.length} traces (${spanCount} spans). Pick one with --rollout ID, --trace ID, --slowest N or --failed.${jobNote}\n\n`);
  const rows =
    rollouts.length > 0
      ? rollouts
          .slice(0, LIST_LIMIT)
          .map((r, i) => [
            r.rolloutId,
            r.traceId,
            formatMs(r.node.span.durationMs),
            verdicts[i]!.reward === null ? '-' : String(verdicts[i]!.reward),
            VERDICT_TEXT[verdicts[i]!.status],
            String(subtree(outermostOf(r)).length),
            connectionsLabel(conns[i]!, formatMs),
          ])
      : traces.slice(0, LIST_LIMIT).map((t) => [t.roots[0]?.span.name ?? '-', t.traceId, formatMs(t.durationMs), '-', '-', String(t.nodes.size), '-']);
  const total = rollouts.length > 0 ? rollouts.length : traces.length;
  const more = total > LIST_LIMIT ? `… ${total - LIST_LIMIT} more\n` : '';
  const cold = conns.filter((c) => c.opened > 0).length;
  const coldNote =
    cold === 0 ? '' : prose(`${cold} rollout${cold === 1 ? '' : 's'} opened new connections (cold start: the first rollouts of a run pay connection set-up; later ones reuse the connections).\n`);
  return head + table([rollouts.length > 0 ? 'rollout' : 'root span', 'trace', 'duration', 'reward', 'verdict', 'spans', 'connections'], rows, ['l', 'l', 'r', 'r', 'l', 'r', 'l']) + more + coldNote;
}

const VERDICT_TEXT: Record<RolloutVerdict['status'], string> = { ok: 'ok', error: 'error', incomplete: 'incomplete', no_verify: 'no verify' };

/** The evidence section, its text lines wrapped to the terminal (Markdown as it is). */
function evidenceText(evidence: Parameters<typeof renderEvidence>[0], format: OutputFormat, width: number | undefined): string {
  const text = renderEvidence(evidence, { markdown: format === 'markdown' });
  return format === 'markdown' ? text : wrapProse(text, width);
}

/**
 * `gym trace show`: the tree picture of one rollout or trace, the slowest or failed ones, or a
 * list of rollouts when nothing is selected.
 * @module
 */
import { isFailed, verdictOf } from '../analyze/verdict.js';
import { findTrace, lookupId } from '../assemble/find.js';
import { assembleTraces } from '../assemble/assemble-traces.js';
import { findJobs } from '../assemble/jobs.js';
import type { Rollout } from '../assemble/rollouts.js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { toJson } from '../render/format.js';
import { loadRolloutPartition, loadTracePartition, slowestRolloutIds } from './load-rollout.js';
import { loadTelemetry } from './load.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import { showLargeRun } from './show-large.js';
import { hasError, renderList, rolloutView, traceView, viewJson, viewStyle, viewText } from './show-views.js';
import type { View } from './show-views.js';
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

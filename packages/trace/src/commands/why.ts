/**
 * `gym trace why`: where one rollout's wall time went, or (`--all`) the aggregate over every
 * rollout.
 * @module
 */
import { attributeRollout, attributeTime } from '../analyze/attribution.js';
import type { Attribution } from '../analyze/attribution.js';
import { findBottleneck } from '../analyze/bottleneck.js';
import { verdictOf } from '../analyze/verdict.js';
import type { RolloutVerdict } from '../analyze/verdict.js';
import { diagnosisSentence } from '../render/diagnosis.js';
import { lookupId } from '../assemble/find.js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { toJson } from '../render/format.js';
import { renderAttribution, renderAttributionSummary } from '../render/why.js';
import { WhyAllTask } from './batch-tasks.js';
import { derivedResult } from '../store/derived-results.js';
import { resolvePaths } from './default-paths.js';
import { readShape, readStoreInBatches } from './load-batches.js';
import { loadRolloutPartition, loadTracePartition } from './load-rollout.js';
import { loadTelemetry, withStore } from './load.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import type { CommandOutput, OutputFormat } from './output.js';

/** Options of {@link why}: an `id` (rollout or trace), or `all`. */
export interface WhyOptions extends InputOptions {
  id?: string;
  all?: boolean;
  format?: OutputFormat;
  /** Columns the text may take (the terminal's); none: as wide as the content. */
  width?: number;
}

/** Runs `why`; returns the exit code (0, or 2 for bad input). */
export async function why(options: WhyOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    if (options.all !== true && options.id === undefined) {
      throw new TraceUserError(TRACE_ERROR_CODES.badOption, 'Pass a rollout id or trace id (see `gym trace show`), or --all for every rollout.');
    }
    const format = options.format ?? 'text';
    if (options.all === true) {
      const paths = await resolvePaths(options.paths, options.cwd, out);
      // the walk of every rollout's critical path, done once per store (derived-results.ts)
      const { summary, bottleneck } = await withStore(paths, out, (store) =>
        derivedResult(store, 'why-all', readShape(), async () => {
          const task = new WhyAllTask();
          const { saturation } = await readStoreInBatches(store, paths, task);
          const use = task.used;
          return { summary: use.totals.finish(), bottleneck: use.bottleneck.finish(saturation) };
        }),
      );
      out.write(
        format === 'json'
          ? toJson({ ...summary, diagnosis: diagnosisSentence(bottleneck), bottleneck })
          : renderAttributionSummary(summary, format === 'markdown' ? 'markdown' : 'text', bottleneck, options.width),
      );
      return 0;
    }
    // a large run: the rollout's part of it (or the trace's) and the run's saturation metrics, not every span
    const part = (await loadRolloutPartition(options, options.id!, out, { saturation: true })) ?? (await loadTracePartition(options, options.id!, out, { saturation: true }));
    const { set, rollouts, saturation } = part === null ? await loadTelemetry(options, out) : { ...part, saturation: part.saturation! };
    const hit = lookupId(set, rollouts, options.id!);
    let result: Attribution;
    let verdict: RolloutVerdict | null = null;
    if (hit.type === 'rollout') {
      result = attributeRollout(hit.rollout);
      verdict = verdictOf(hit.rollout);
    } else if (hit.rollouts.length > 1) {
      const ids = hit.rollouts
        .slice(0, 10)
        .map((r) => r.rolloutId)
        .join(', ');
      throw new TraceUserError(
        TRACE_ERROR_CODES.ambiguousTrace,
        `Trace ${hit.trace.traceId} holds ${hit.rollouts.length} rollouts (runs written before one trace per rollout put a whole run under gym.job). Pass one rollout id, e.g. ${ids}, or use --all.`,
      );
    } else {
      const root = hit.trace.roots[0]!;
      result = attributeTime(root);
    }
    const bottleneck = findBottleneck([result], saturation);
    out.write(
      format === 'json'
        ? toJson({ ...result, verdict, diagnosis: diagnosisSentence(bottleneck), bottleneck })
        : renderAttribution(result, format === 'markdown' ? 'markdown' : 'text', { verdict, bottleneck, ...(options.width === undefined ? {} : { width: options.width }) }),
    );
    return 0;
  });
}

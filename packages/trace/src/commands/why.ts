/**
 * `gym trace why`: where one rollout's wall time went, or (`--all`) the aggregate over every
 * rollout.
 * @module
 */
import { attributeTime } from '../analyze/attribution.js';
import type { Attribution } from '../analyze/attribution.js';
import { summarizeAttributions } from '../analyze/attribution-summary.js';
import { lookupId } from '../assemble/find.js';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { toJson } from '../render/format.js';
import { renderAttribution, renderAttributionSummary } from '../render/why.js';
import { loadTelemetry } from './load.js';
import type { InputOptions } from './load.js';
import { runCommand } from './output.js';
import type { CommandOutput, OutputFormat } from './output.js';

/** Options of {@link why}: an `id` (rollout or trace), or `all`. */
export interface WhyOptions extends InputOptions {
  id?: string;
  all?: boolean;
  format?: OutputFormat;
}

/** Runs `why`; returns the exit code (0, or 2 for bad input). */
export async function why(options: WhyOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    if (options.all !== true && options.id === undefined) {
      throw new TraceUserError(TRACE_ERROR_CODES.badOption, 'Pass a rollout id or trace id (see `gym trace show`), or --all for every rollout.');
    }
    const { set, rollouts } = await loadTelemetry(options, out);
    const format = options.format ?? 'text';
    if (options.all === true) {
      // Without rollout spans, fall back to every trace root, so plain traces still get an answer.
      const items: Attribution[] = rollouts.length > 0
        ? rollouts.map((r) => attributeTime(r.node, r.rolloutId))
        : [...set.traces.values()].flatMap((t) => t.roots.map((root) => attributeTime(root)));
      const summary = summarizeAttributions(items);
      out.write(format === 'json' ? toJson(summary) : renderAttributionSummary(summary, format === 'markdown' ? 'markdown' : 'text'));
      return 0;
    }
    const hit = lookupId(set, rollouts, options.id!);
    let result: Attribution;
    if (hit.type === 'rollout') result = attributeTime(hit.rollout.node, hit.rollout.rolloutId);
    else if (hit.rollouts.length > 1) {
      const ids = hit.rollouts.slice(0, 10).map((r) => r.rolloutId).join(', ');
      throw new TraceUserError(TRACE_ERROR_CODES.ambiguousTrace, `Trace ${hit.trace.traceId} holds ${hit.rollouts.length} rollouts (the default preset puts a whole run under gym.job). Pass one rollout id, e.g. ${ids}, or use --all.`);
    } else {
      const root = hit.trace.roots[0]!;
      result = attributeTime(root);
    }
    out.write(format === 'json' ? toJson(result) : renderAttribution(result, format === 'markdown' ? 'markdown' : 'text'));
    return 0;
  });
}

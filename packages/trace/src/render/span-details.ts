/**
 * The short annotations shown after a span in the tree: rollout id and reward on the rollout,
 * model and tokens on model spans, the tool on tool calls, error and truncation markers.
 * @module
 */
import { ownCategory, routeOf } from '../analyze/categorize.js';
import { clientPhasesOf, openedConnection } from '../analyze/client-phases.js';
import { verdictLabel, verdictOf } from '../analyze/verdict.js';
import type { SpanNode } from '../assemble/trace-model.js';
import { envelopeOf, rewardOf, rolloutIdOf } from '../assemble/rollouts.js';
import { ATTR, isTruncated, SPAN } from '../span-record.js';
import { formatMs } from './format.js';

/** Annotations for `node`; `agentService` tells tool servers from the agent's own routes. */
export function spanDetails(node: SpanNode, agentService: string): string[] {
  const s = node.span;
  const out: string[] = [];
  if (s.name === SPAN.ROLLOUT) {
    out.push(`rollout ${rolloutIdOf(s)}`);
    // the same verdict as the list, `why`, `--failed`, `anomalies` and the report
    const v = verdictOf({ node, envelope: envelopeOf(node) });
    out.push(v.status === 'error' ? 'error' : verdictLabel(v));
  }
  if (s.name === SPAN.VERIFY) {
    const reward = rewardOf(s);
    if (reward !== null) out.push(`reward ${reward}`);
  }
  const model = s.attributes[ATTR.GEN_AI_REQUEST_MODEL] ?? s.attributes[ATTR.GEN_AI_RESPONSE_MODEL];
  if (typeof model === 'string') out.push(`model ${model}`);
  const inTok = s.attributes[ATTR.GEN_AI_INPUT_TOKENS];
  const outTok = s.attributes[ATTR.GEN_AI_OUTPUT_TOKENS];
  if (inTok !== undefined || outTok !== undefined) out.push(`tokens ${String(inTok ?? '?')} in / ${String(outTok ?? '?')} out`);
  const phases = clientPhasesOf(s);
  if (phases !== null) out.push(openedConnection(phases) ? `new connection (connect ${formatMs(phases.connectMs)})` : phases.reused === true ? 'reused connection' : '');
  if (s.kind === 'SERVER' && ownCategory(s, agentService) === 'tools') {
    const route = routeOf(s);
    if (route !== null) out.push(`tool ${route.replace(/^\//, '')}`);
  }
  if (s.status.code === 'ERROR') out.push(`ERROR${s.status.message ? `: ${s.status.message}` : ''}`);
  if (isTruncated(s)) out.push('truncated');
  if (!s.ended) out.push('never ended');
  if (node.orphan) out.push(`orphan (parent ${s.parentSpanId} missing)`);
  return out.filter((d) => d.length > 0);
}

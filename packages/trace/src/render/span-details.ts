/**
 * The short annotations shown after a span in the tree: rollout id and reward on the rollout,
 * model and tokens on model spans, the tool on tool calls, error and truncation markers.
 * @module
 */
import { ownCategory, routeOf } from '../analyze/categorize.js';
import type { SpanNode } from '../assemble/trace-model.js';
import { rewardOf, rolloutIdOf } from '../assemble/rollouts.js';
import { findDescendant } from '../assemble/rollouts.js';
import { ATTR, isTruncated, SPAN } from '../span-record.js';

/** Annotations for `node`; `agentService` tells tool servers from the agent's own routes. */
export function spanDetails(node: SpanNode, agentService: string): string[] {
  const s = node.span;
  const out: string[] = [];
  if (s.name === SPAN.rollout) {
    out.push(`rollout ${rolloutIdOf(s)}`);
    const verify = findDescendant(node, (d) => d.name === SPAN.verify);
    const reward = verify === null ? null : rewardOf(verify.span);
    out.push(verify === null ? 'no verify' : `reward ${reward ?? '?'}`);
  }
  if (s.name === SPAN.verify) {
    const reward = rewardOf(s);
    if (reward !== null) out.push(`reward ${reward}`);
  }
  const model = s.attributes[ATTR.requestModel] ?? s.attributes[ATTR.responseModel];
  if (typeof model === 'string') out.push(`model ${model}`);
  const inTok = s.attributes[ATTR.inputTokens];
  const outTok = s.attributes[ATTR.outputTokens];
  if (inTok !== undefined || outTok !== undefined) out.push(`tokens ${inTok ?? '?'} in / ${outTok ?? '?'} out`);
  if (s.kind === 'SERVER' && ownCategory(s, agentService) === 'tools') {
    const route = routeOf(s);
    if (route !== null) out.push(`tool ${route.replace(/^\//, '')}`);
  }
  if (s.status.code === 'ERROR') out.push(`ERROR${s.status.message ? `: ${s.status.message}` : ''}`);
  if (isTruncated(s)) out.push('truncated');
  if (!s.ended) out.push('never ended');
  if (node.orphan) out.push(`orphan (parent ${s.parentSpanId} missing)`);
  return out;
}

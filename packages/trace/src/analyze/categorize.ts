/**
 * Which part of a rollout a span's time belongs to (model, tools, verification, judge calls,
 * seeding, agent harness). Spans without a rule of their own inherit their parent's category.
 * @module
 */
import type { SpanNode } from '../assemble/trace-model.js';
import { ATTR, SPAN } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';

/**
 * Time categories of `gym trace why`. The CLIENT time of a hop outside its SERVER child is split
 * into `caller_queue`, `connect`, `transit` (sent → the callee's SERVER span started: the wire and
 * the callee's event loop), `return` (callee done → caller done) and `retries` (earlier attempts);
 * without recorded phases it stays `network`. The collector's own hop around a rollout is kept
 * apart as `collector_send` and `collector_return`.
 */
export type TimeCategory =
  'model' | 'tools' | 'verify' | 'judge' | 'seed' | 'agent' | 'caller_queue' | 'connect' | 'transit' | 'return' | 'retries' | 'network' | 'collector_send' | 'collector_return' | 'unaccounted';

/** Every category, in display order. */
export const TIME_CATEGORIES: readonly TimeCategory[] = [
  'model',
  'tools',
  'verify',
  'judge',
  'seed',
  'agent',
  'caller_queue',
  'connect',
  'transit',
  'return',
  'retries',
  'network',
  'collector_send',
  'collector_return',
  'unaccounted',
];

const MODEL_ROUTES = new Set(['/v1/responses', '/v1/chat/completions', '/v1/messages', '/v1/completions']);

/** The route of a SERVER span: `http.route`, else the path part of `<METHOD> <route>`. */
export function routeOf(span: SpanRecord): string | null {
  const r = span.attributes[ATTR.HTTP_ROUTE];
  if (typeof r === 'string' && r.length > 0) return stripRolloutPrefix(r);
  const m = /^[A-Z]+ (\/\S*)$/.exec(span.name);
  return m === null ? null : stripRolloutPrefix(m[1]!);
}

// `/ng-rollout/<id>/v1/responses` is the same route as `/v1/responses`.
function stripRolloutPrefix(route: string): string {
  // most routes have none: no regular expression run for them (this runs for every SERVER span)
  if (!route.startsWith('/ng-rollout/')) return route;
  const m = /^\/ng-rollout\/[^/]+(\/.*)$/.exec(route);
  return m === null ? route : m[1]!.replace(/^\/training-token-capture(?=\/)/, '');
}

/**
 * The category a span claims for itself, or null to inherit. SERVER spans are classified by
 * route: `/verify` → verify, `/seed_session` → seed, on the agent's own service → agent, model
 * routes → model, any other route (a resources server's tool) → tools.
 */
export function ownCategory(span: SpanRecord, agentService: string): TimeCategory | null {
  if (span.name.startsWith(SPAN.MODEL_PREFIX)) return 'model';
  if (span.name === SPAN.VERIFY) return 'verify';
  if (span.name === SPAN.ROLLOUT) return 'agent';
  if (span.kind !== 'SERVER') return null;
  const route = routeOf(span) ?? '';
  if (route.endsWith('/verify')) return 'verify';
  if (route.endsWith('/seed_session')) return 'seed';
  if (span.service === agentService) return 'agent';
  if (MODEL_ROUTES.has(route)) return 'model';
  return 'tools';
}

/**
 * The category of a span whose parent's is `inherited`: its own, else the parent's. A model call
 * made while verifying (an LLM judge's) is `judge`, not `model`: it is the environment's time, not
 * the policy's.
 */
export function categoryOf(span: SpanRecord, agentService: string, inherited: TimeCategory): TimeCategory {
  const own = ownCategory(span, agentService) ?? inherited;
  return own === 'model' && (inherited === 'verify' || inherited === 'judge') ? 'judge' : own;
}

/**
 * Categories of every node under `root` (inclusive); `root` itself defaults to `agent`.
 * `agentService` is the rollout's own service (default: the root's).
 */
export function categorizeSubtree(root: SpanNode, agentService: string = root.span.service): Map<SpanNode, TimeCategory> {
  const out = new Map<SpanNode, TimeCategory>();
  const stack: Array<[SpanNode, TimeCategory]> = [[root, ownCategory(root.span, agentService) ?? 'agent']];
  while (stack.length > 0) {
    const [node, inherited] = stack.pop()!;
    const cat = node === root ? inherited : categoryOf(node.span, agentService, inherited);
    out.set(node, cat);
    for (const c of node.children) stack.push([c, cat]);
  }
  return out;
}

/** The SERVER child a CLIENT span called (the longest, if it retried into several), or null. */
export function serverChildOf(node: SpanNode): SpanNode | null {
  let best: SpanNode | null = null;
  for (const c of node.children) {
    if (c.span.kind !== 'SERVER') continue;
    if (best === null || c.span.durationMs > best.span.durationMs) best = c;
  }
  return best;
}

/**
 * Display labels of the time categories and hop phases, shared by `why`, `stats` and the report.
 * @module
 */
import type { TimeCategory } from '../analyze/categorize.js';
import type { HopPhase } from '../analyze/hop-timeline.js';

/** Label per time category. */
export const CATEGORY_LABEL: Record<TimeCategory, string> = {
  model: 'model',
  tools: 'tools',
  verify: 'verification',
  seed: 'seed session',
  agent: 'agent harness',
  caller_queue: 'caller queue',
  connect: 'connect',
  transit: 'transit + callee queue',
  return: 'return',
  retries: 'retries',
  network: 'network + queue (phases not recorded)',
  collector_send: 'collector → agent (before /run started)',
  collector_return: 'agent → collector (after /run ended)',
  unaccounted: 'unaccounted',
};

/** Label per hop phase. */
export const PHASE_LABEL: Record<HopPhase, string> = {
  retries: 'retries',
  caller_queue: 'caller queue',
  connect: 'connect',
  transit: 'transit + callee queue',
  return: 'return',
  network_before: 'before (phases not recorded)',
  network_after: 'after (phases not recorded)',
  no_server: 'no SERVER span',
};

/**
 * Display labels of the time categories, shared by `why`, `stats` and the report.
 * @module
 */
import type { TimeCategory } from '../analyze/categorize.js';

/** Label per time category. */
export const CATEGORY_LABEL: Record<TimeCategory, string> = {
  model: 'model',
  tools: 'tools',
  verify: 'verification',
  judge: 'judge model (while verifying)',
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

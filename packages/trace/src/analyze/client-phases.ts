/**
 * The phases a producer records on a CLIENT span `HTTP <METHOD>` (the last attempt when the request
 * was retried): how long it queued in the caller, how long a new connection took, and when the
 * request was written, the response headers arrived and the body was complete. Offsets are from
 * the CLIENT span's own start, in milliseconds.
 * @module
 */
import { ATTR } from '@gym/names';
import { attributeOf } from '../span-record.js';
import type { SpanRecord } from '../span-record.js';
import { retryCount } from './retries.js';

/** Attribute keys of the client phases. */
export const PHASE_ATTR = {
  queuedMs: ATTR.HTTP_PHASE_QUEUED_MS,
  connectMs: ATTR.HTTP_PHASE_CONNECT_MS,
  reused: ATTR.HTTP_CONNECTION_REUSED,
  sentAtMs: ATTR.HTTP_PHASE_SENT_AT_MS,
  headersAtMs: ATTR.HTTP_PHASE_HEADERS_AT_MS,
  doneAtMs: ATTR.HTTP_PHASE_DONE_AT_MS,
} as const;

/** The phases of one CLIENT span; offsets from its start, durations in ms. */
export interface ClientPhases {
  /** Waited in the caller (pool and event loop) before a connection took the request. */
  queuedMs: number;
  /** Opening a new connection; 0 when a kept-alive one was reused. */
  connectMs: number;
  /** Null when the producer did not say. */
  reused: boolean | null;
  sentAtMs: number;
  headersAtMs: number | null;
  doneAtMs: number | null;
  /** True when the request was re-sent: the phases describe its last attempt. */
  resent: boolean;
}

/**
 * The phases of `span`, or null when it carries none (older runs, the Python SDK). The queue
 * duration and the sent offset are required; negative values (a producer bug) count as 0.
 */
export function clientPhasesOf(span: SpanRecord): ClientPhases | null {
  return fillClientPhases(null, span);
}

/** Phases to fill with {@link fillClientPhases}. */
export function emptyClientPhases(): ClientPhases {
  return { queuedMs: 0, connectMs: 0, reused: null, sentAtMs: 0, headersAtMs: null, doneAtMs: null, resent: false };
}

/**
 * {@link clientPhasesOf} read into `into` (its owner reuses it from one span to the next; null: a
 * new object): the phases, or null when the span carries none.
 */
export function fillClientPhases(into: ClientPhases | null, span: SpanRecord): ClientPhases | null {
  if (span.kind !== 'CLIENT') return null;
  // asked of every CLIENT span: attributes not yet read are not read for spans without phases
  const queued = num(attributeOf(span, PHASE_ATTR.queuedMs));
  const sentAt = num(attributeOf(span, PHASE_ATTR.sentAtMs));
  if (queued === null || sentAt === null) return null;
  const reused = span.attributes[PHASE_ATTR.reused];
  const p = into ?? emptyClientPhases();
  p.queuedMs = Math.max(0, queued);
  p.connectMs = Math.max(0, num(span.attributes[PHASE_ATTR.connectMs]) ?? 0);
  p.reused = reused === true || reused === 'true' ? true : reused === false || reused === 'false' ? false : null;
  p.sentAtMs = Math.max(0, sentAt);
  p.headersAtMs = num(span.attributes[PHASE_ATTR.headersAtMs]);
  p.doneAtMs = num(span.attributes[PHASE_ATTR.doneAtMs]);
  p.resent = retryCount(span) > 0;
  return p;
}

/** True when the CLIENT span opened a new connection (said so, or spent time connecting). */
export function openedConnection(p: ClientPhases): boolean {
  return p.reused === false || (p.reused === null && p.connectMs > 0);
}

function num(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
}

/**
 * The one-sentence diagnosis of a bottleneck, in the spirit of clinic.js doctor: what held the
 * rollouts up, with the numbers, and what to try. A caller queue with an idle caller event loop
 * means the pool; a busy loop (utilization or delay) means CPU in that process — for a caller,
 * counted over its queue, connect and return on all its calls; transit with a busy callee names
 * the callee; transit with both loops idle means the wire.
 * @module
 */
import type { Bottleneck } from '../analyze/bottleneck.js';
import { isBusy, isIdle } from '../analyze/saturation-window.js';
import type { ServiceLoad } from '../analyze/saturation-window.js';
import { displayService, formatMs, formatPct } from './format.js';

/** What the sentence reports when there are no metrics to tell causes apart. */
export const NO_METRICS = 'no saturation metrics recorded';

/** The diagnosis sentence of `b`. */
export function diagnosisSentence(b: Bottleneck): string {
  const c = b.cause;
  if (c === null || b.wallMs <= 0) return 'Nothing to diagnose: no time was attributed.';
  const per = b.rollouts > 1;
  const wall = per ? b.wallMs / b.rollouts : b.wallMs;
  const amount = `${formatMs(per ? c.ms / b.rollouts : c.ms)} of ${formatMs(wall)}${per ? ' per rollout' : ''} (${formatPct(c.ms / b.wallMs)})`;
  const load = (svc: string | null) => (svc === null ? undefined : b.loads.find((l) => l.service === svc));
  const noMetrics = b.saturationRecorded ? '' : ` (${NO_METRICS})`;
  // metrics exist, but none fall inside these rollouts' time (an export interval longer than the run)
  const unmeasured = (svc: string | null) =>
    b.saturationRecorded && load(svc) === undefined ? ` (no saturation metrics of ${name(svc)} during these rollouts to tell which: export them more often with OTEL_METRIC_EXPORT_INTERVAL)` : '';
  const from = name(c.from);
  const to = name(c.to);
  switch (c.kind) {
    case 'model': {
      const l = load(c.from);
      if (isBusy(l)) return `${busy(from, l!)}: model calls waited for CPU in ${from} — ${amount} inside the model server — add ${from} processes (num_workers) or move work off its event loop`;
      return `${amount} inside ${c.spanName ?? 'the model'}${c.from === null ? '' : ` on ${from}`}: the model is the bottleneck — a faster model deployment or fewer tokens per call would help; the rest of the pipeline is not what limits this${noMetrics}`;
    }
    case 'judge':
      return `${amount} waiting for the judge model${c.spanName === null ? '' : ` (${c.spanName})`}${c.from === null ? '' : ` called by ${from}`} while verifying: the judge is the bottleneck — a faster or closer judge deployment, or fewer judge passes (check_twice_swap, check_full_generation_on_fail), would help${noMetrics}`;
    case 'tools':
    case 'verify':
    case 'seed': {
      const what = c.kind === 'tools' ? 'tool calls' : c.kind === 'verify' ? 'verification' : 'session seeding';
      const l = load(c.from);
      if (isBusy(l)) return `${busy(from, l!)}: ${what} waited for CPU in ${from} — ${amount} — add ${from} processes (num_workers) or make its handlers cheaper`;
      return `${amount} inside ${from} ${what} (${c.spanName ?? c.kind}): that server's own work is the bottleneck — profile its handlers${noMetrics}`;
    }
    case 'agent': {
      const l = load(c.from);
      if (isBusy(l)) return `${busy(from, l!)}: rollouts waited for CPU in ${from} — ${amount} in its own code — lower --concurrency or add ${from} processes (num_workers)`;
      return `${amount} in ${from}'s own code between calls: the agent harness is the bottleneck — profile it${noMetrics}`;
    }
    case 'caller_queue': {
      const l = load(c.from);
      const towards = c.to === null ? '' : ` to ${to}`;
      if (isBusy(l)) return `${busy(from, l!)}: rollouts waited for CPU in ${from} — ${amount} queued before requests${towards} were sent — lower --concurrency or add ${from} processes (num_workers)`;
      const why = isIdle(l) ? ` while its event loop was ${formatPct(l!.elu)} busy` : b.saturationRecorded ? '' : ` (${NO_METRICS}: a busy ${from} event loop would look the same)`;
      return `caller pool full at ${from}${c.to === null ? '' : ` → ${to}`}: ${amount} queued before a connection${why} — raise the upstream connection limit${c.collector ? ' of the collector, or lower --concurrency' : ''}`;
    }
    case 'caller_loop': {
      const l = load(c.from);
      return `${l === undefined ? `${from} event loop busy` : busy(from, l)}: rollouts waited for CPU in ${from} — ${amount} queued before requests were sent or answers were read — lower --concurrency or add ${from} processes (num_workers)`;
    }
    case 'connect':
      return `${amount} opening new connections ${from} → ${to}: connection set-up (cold start, or connections not kept alive) — keep connections alive and warm them before the run`;
    case 'transit': {
      const callee = load(c.to);
      const caller = load(c.from);
      if (isBusy(callee))
        return `${busy(to, callee!)}: requests from ${from} waited in ${to} before its handler ran — ${amount} in transit + callee queue — add ${to} processes (num_workers) or make its handlers cheaper`;
      if (isIdle(callee) && (isIdle(caller) || caller === undefined))
        return `${amount} in transit ${from} → ${to} with ${caller === undefined ? `${to}'s` : 'both'} event loop${caller === undefined ? '' : 's'} idle (${to} ${formatPct(callee!.elu)}${caller === undefined ? '' : `, ${from} ${formatPct(caller.elu)}`}): the wire between them is slow — check the network or proxy on that path`;
      return `${amount} between ${from} sending and ${to} handling requests: the wire or ${to}'s event loop${b.saturationRecorded ? unmeasured(c.to) : ` (${NO_METRICS} to tell which)`}`;
    }
    case 'return': {
      const l = load(c.from);
      if (isBusy(l)) return `${busy(from, l!)}: responses from ${to} waited for ${from}'s event loop — ${amount} — lower --concurrency or add ${from} processes (num_workers)`;
      return `${amount} returning responses ${to} → ${from}: the wire, large responses or ${from}'s event loop${noMetrics}${unmeasured(c.from)}`;
    }
    case 'retries':
      return `${amount} in failed attempts and back-off ${from} → ${to}: see \`gym trace anomalies\` for the retried requests and fix what made them fail`;
    case 'network': {
      const busiest = b.loads.find((l) => isBusy(l));
      const hint = busiest === undefined ? (b.saturationRecorded ? '' : `; ${NO_METRICS}`) : `; ${busy(name(busiest.service), busiest)}, likely CPU in ${name(busiest.service)}`;
      return `${amount} between ${from} and ${to}, network + queue (phases not recorded: an older run or the Python SDK's output), so the queue cannot be told from the wire${hint}`;
    }
    case 'unaccounted':
      return `${amount} in calls ${from} → ${to} that left no SERVER span: its log file is missing or cut, it was killed before writing them, or it is not instrumented — see \`gym trace anomalies\``;
  }
}

function busy(svc: string, l: ServiceLoad): string {
  const parts = [l.elu === null ? null : `${Math.round(l.elu * 100)}% busy`, l.delayP99Ms === null ? null : `delay p99 ${formatMs(l.delayP99Ms)}`].filter((x) => x !== null);
  const gc = l.gcShare !== null && l.gcShare >= 0.1 ? `, ${formatPct(l.gcShare)} of it in GC` : '';
  return `${svc} event loop ${parts[0] ?? 'busy'}${parts.length > 1 ? ` (${parts[1]})` : ''}${gc}`;
}

function name(svc: string | null): string {
  return svc === null ? 'the caller' : displayService(svc);
}

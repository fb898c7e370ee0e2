/**
 * The run's telemetry losses in one line. Each server process counts exactly what it never
 * delivered (lens's loss tally, also in its own LENS_W011 warning) and sends the totals to its
 * orchestrator over the liveness channel just before it exits; the orchestrator adds its own and
 * prints the sum once everything stopped. The message carries counts only, never telemetry content.
 * @module
 */
import type { SignalLosses, TelemetryLosses } from '@gym/lens/setup';
import type { GymTelemetry } from './state.js';

/** `type` of the IPC message a server sends its orchestrator with its final losses. */
export const LOSSES_MESSAGE_TYPE = 'gym.telemetry.losses';

/** The IPC message a server sends its orchestrator with its final losses. */
export interface LossesMessage {
  type: typeof LOSSES_MESSAGE_TYPE;
  losses: TelemetryLosses;
}

const SIGNALS = ['spans', 'metric points', 'log records'] as const;

/** True for a {@link LossesMessage}. */
export function isLossesMessage(message: unknown): message is LossesMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === LOSSES_MESSAGE_TYPE && typeof (message as { losses?: unknown }).losses === 'object';
}

/** Sends this process's final losses to the process that started it, if it listens. Resolves once sent (or at once). */
export function sendLosses(telemetry: GymTelemetry | undefined): Promise<void> {
  const losses = telemetry?.losses();
  if (losses === undefined || process.send === undefined || !process.connected) return Promise.resolve();
  const message: LossesMessage = { type: LOSSES_MESSAGE_TYPE, losses };
  return new Promise((resolve) => {
    try {
      process.send!(message, undefined, undefined, () => resolve());
    } catch {
      resolve();
    }
  });
}

/** The sum of several processes' losses. */
export function sumLosses(all: ReadonlyArray<TelemetryLosses | undefined>): TelemetryLosses {
  const total = Object.fromEntries(SIGNALS.map((s) => [s, { accepted: 0, exported: 0, failed: 0, lost: 0 }])) as TelemetryLosses;
  for (const losses of all) {
    if (losses === undefined) continue;
    for (const signal of SIGNALS) {
      const from: Partial<SignalLosses> = losses[signal] ?? {};
      const into = total[signal];
      into.accepted += Number(from.accepted) || 0;
      into.exported += Number(from.exported) || 0;
      into.failed += Number(from.failed) || 0;
      into.lost += Number(from.lost) || 0;
    }
  }
  return total;
}

/**
 * `telemetry not delivered: 94 of 94 spans, 236 of 236 metric points (in 4 processes; their
 * LENS_W011 warnings say why)`, or `undefined` when nothing was lost.
 */
export function describeRunLosses(total: TelemetryLosses, processes: number): string | undefined {
  const parts = SIGNALS.filter((s) => total[s].lost > 0).map((s) => `${total[s].lost} of ${total[s].accepted} ${s}`);
  if (parts.length === 0) return undefined;
  return `telemetry not delivered: ${parts.join(', ')} (in ${processes} process${processes === 1 ? '' : 'es'}; their LENS_W011 warnings say why)`;
}

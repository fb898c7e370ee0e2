/**
 * Ctrl-C (SIGINT, or SIGTERM, SIGHUP) during a conversion (or another long step that leaves
 * files behind until it ends, as `show`'s spool on a large run): DuckDB's running query is interrupted
 * and the byte scan stops at its next buffer, so the conversion unwinds through its own cleanup
 * (temporary files, the unfinished chunk's parts, the lock) instead of the process dying with them
 * on disk. The command then ends as the signal would have ended it (exit 128 + its number, by
 * `runCommand`); a library caller gets {@link ConversionStopped}.
 * @module
 */
import { constants } from 'node:os';
import { ConversionStopped } from '../errors.js';
import type { Duck } from './duck.js';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `work` with the stop signals caught: the first interrupts `duck`'s query and makes
 * `stopped()` true (checked by the work between its steps); a second exits at once.
 * @throws ConversionStopped when a signal came, whatever the work then did.
 */
export async function stoppable<T>(duck: Duck, work: (stopped: () => boolean) => Promise<T>): Promise<T> {
  let signal: NodeJS.Signals | null = null;
  const onSignal = (s: NodeJS.Signals) => {
    if (signal !== null) process.exit(128 + constants.signals[s]);
    signal = s;
    duck.connection.interrupt();
  };
  for (const s of STOP_SIGNALS) process.on(s, onSignal);
  try {
    const done = await work(() => signal !== null);
    if (signal !== null) throw new ConversionStopped(signal);
    return done;
  } catch (err) {
    throw signal === null ? err : new ConversionStopped(signal);
  } finally {
    for (const s of STOP_SIGNALS) process.off(s, onSignal);
  }
}

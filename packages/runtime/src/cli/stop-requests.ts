/**
 * How the CLI is asked to stop: SIGINT (Ctrl-C), SIGTERM, SIGHUP (terminal closed), or the `gym`
 * wrapper that started it going away (its IPC channel closes: it was killed by a signal it cannot
 * forward, such as SIGKILL). That last one stops as SIGHUP does and exits 129, but is reported as
 * what it was, never as a SIGHUP. The first request stops gracefully (no new work, in-flight work
 * drains, servers stop, telemetry flushes); a second one abandons what is still in flight, and a
 * stop that is still waiting ({@link unlessAbandoned}) is left at once. The command then exits
 * 128 + the signal's number (130, 143, 129) with a line saying so.
 * @module
 */
import { constants } from 'node:os';
import { watchParent } from '@gym/server/internal/server-process/parent-link.js';
import { ExitError } from '@gym/server/internal/errors.js';
import type { CliIo } from './io.js';

/** The process that started this one, read before it can go (an orphan's parent is then init). */
const STARTED_BY = process.ppid;

/** The signals that stop a command. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
/** One of {@link STOP_SIGNALS}. */
export type StopSignal = (typeof STOP_SIGNALS)[number];
/** Why a command stops: a signal, or the `gym` wrapper that started it is gone. */
export type StopCause = StopSignal | 'wrapper-gone';

/** The stop requests of one command, from {@link watchStopRequests}. */
export interface StopRequests {
  /** Aborts on the first request. */
  readonly stop: AbortSignal;
  /** Aborts on the second request. */
  readonly abandon: AbortSignal;
  /** The first request's cause, once there was one. */
  received(): StopCause | undefined;
  /** Removes the listeners (and lets the wrapper's channel stop holding the process open). */
  dispose(): void;
}

/** The exit code of a command stopped by `cause`: 128 + the signal's number, as shells report it (129 when the wrapper is gone). */
export function signalExitCode(cause: StopCause): number {
  return 128 + constants.signals[cause === 'wrapper-gone' ? 'SIGHUP' : cause];
}

/** `SIGTERM received`, or what happened to the wrapper. */
export function receivedText(cause: StopCause): string {
  return cause === 'wrapper-gone' ? `the gym process that started this command (pid ${STARTED_BY}) is gone (killed by a signal it cannot forward, such as SIGKILL)` : `${cause} received`;
}

/**
 * Starts listening for stop requests. `onRequest` runs on each, with `first` true for the first one
 * (say what happens next there: the default action of the signal, ending the process, is replaced).
 */
export function watchStopRequests(onRequest: (cause: StopCause, first: boolean) => void = () => undefined): StopRequests {
  const stop = new AbortController();
  const abandon = new AbortController();
  let first: StopCause | undefined;
  const request = (signal: StopCause): void => {
    if (first === undefined) {
      first = signal;
      onRequest(signal, true);
      stop.abort(signal);
    } else if (!abandon.signal.aborted) {
      onRequest(signal, false);
      abandon.abort(signal);
    }
  };
  const listeners = STOP_SIGNALS.map((signal) => [signal, () => request(signal)] as const);
  for (const [signal, listener] of listeners) process.on(signal, listener);
  const releaseParent = watchParent(() => request('wrapper-gone'));
  return {
    stop: stop.signal,
    abandon: abandon.signal,
    received: () => first,
    dispose() {
      for (const [signal, listener] of listeners) process.removeListener(signal, listener);
      releaseParent();
    },
  };
}

/**
 * `work`, or `'abandoned'` as soon as a second stop request comes (at once if one came already):
 * the command then leaves without waiting for it. Processes it started stop on their own when
 * this one ends (their liveness channel closes).
 */
export function unlessAbandoned<T>(requests: StopRequests, work: Promise<T>): Promise<T | 'abandoned'> {
  if (requests.abandon.aborted) return Promise.resolve('abandoned');
  return new Promise((resolve, reject) => {
    const onAbandon = () => resolve('abandoned');
    requests.abandon.addEventListener('abort', onAbandon, { once: true });
    work.then(resolve, reject).finally(() => requests.abandon.removeEventListener('abort', onAbandon));
  });
}

/** The line of a stop left at once by a second request. */
export function abandonedStopLine(requests: StopRequests): string {
  const reason = requests.abandon.reason as StopCause | undefined;
  const second = reason === undefined || reason === 'wrapper-gone' ? 'stop request' : reason;
  return `gym: second ${second}: leaving without waiting for the servers to stop (each stops on its own when gym exits)`;
}

/** Says why the command was stopped and leaves with 128 + the signal's number. */
export function exitStopped(cause: StopCause, io: CliIo): never {
  const code = signalExitCode(cause);
  io.err(cause === 'wrapper-gone' ? `gym: stopped because ${receivedText(cause)} (exit ${code})` : `gym: stopped by ${cause} (exit ${code})`);
  throw new ExitError(code);
}

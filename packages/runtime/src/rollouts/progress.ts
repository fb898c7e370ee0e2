/**
 * Collection progress on stderr: on a terminal one redrawn line with a bar (done / failed /
 * in flight / rate / ETA); otherwise a plain line every `intervalMs` and one at the end.
 * @module
 */

/** Counters shown by the progress display. */
export interface ProgressState {
  total: number;
  done: number;
  failed: number;
  inFlight: number;
}

/** Where progress goes. */
export interface ProgressSink {
  write(text: string): void;
  /** Redraw one line (terminal) or print periodic lines (pipe, file). */
  isTty: boolean;
}

/** Options of {@link createProgress}. */
export interface ProgressOptions {
  sink: ProgressSink;
  total: number;
  /** Plain-line period when not a terminal. Default 5000 ms. */
  intervalMs?: number;
  /** Terminal redraw period. Default 100 ms. */
  redrawMs?: number;
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number;
}

/** A running progress display. */
export interface Progress {
  readonly state: ProgressState;
  started(): void;
  finished(ok: boolean): void;
  /** Stops the display and prints the final line. Idempotent. */
  stop(): void;
}

/** Formats one progress line; `elapsedMs` gives the rate and the ETA. */
export function formatProgress(state: ProgressState, elapsedMs: number, width = 24): string {
  const finished = state.done + state.failed;
  const ratio = state.total === 0 ? 1 : finished / state.total;
  const filled = Math.round(ratio * width);
  const rate = elapsedMs > 0 ? (finished * 1000) / elapsedMs : 0;
  const remaining = state.total - finished;
  const eta = rate > 0 ? formatDuration((remaining / rate) * 1000) : '--';
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
  return `${bar} ${finished}/${state.total} done ${state.done} failed ${state.failed} in flight ${state.inFlight} | ${rate.toFixed(1)}/s | ETA ${eta}`;
}

/** `1h02m`, `3m05s`, `12s`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/** Starts a progress display for `total` rollouts. Call `stop()` when collection ends. */
export function createProgress(options: ProgressOptions): Progress {
  const now = options.now ?? Date.now;
  const start = now();
  const state: ProgressState = { total: options.total, done: 0, failed: 0, inFlight: 0 };
  const { sink } = options;
  const line = () => formatProgress(state, now() - start);
  const draw = () => (sink.isTty ? sink.write(`\r\x1b[2K${line()}`) : sink.write(`gym: rollouts ${line()}\n`));
  const timer = setInterval(draw, sink.isTty ? (options.redrawMs ?? 100) : (options.intervalMs ?? 5000));
  timer.unref();
  let stopped = false;
  return {
    state,
    started: () => void state.inFlight++,
    finished(ok) {
      state.inFlight--;
      if (ok) state.done++;
      else state.failed++;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      draw();
      if (sink.isTty) sink.write('\n');
    },
  };
}

/**
 * Collection progress on stderr: on a terminal one redrawn line with a bar (finished of total,
 * succeeded, failed, running, rate, ETA) that fits the terminal; otherwise a plain line every
 * `intervalMs` and one at the end.
 * @module
 */

/** Counters shown by the progress display. */
export interface ProgressState {
  total: number;
  done: number;
  failed: number;
  /** Rollouts given up when the run was stopped (a second Ctrl-C): neither succeeded nor failed. */
  abandoned: number;
  inFlight: number;
}

/** Where progress goes. */
export interface ProgressSink {
  write(text: string): void;
  /** Redraw one line (terminal) or print periodic lines (pipe, file). */
  isTty: boolean;
  /** The terminal's width; the bar shrinks so the line fits. */
  columns?: number;
  /** Colour the bar (green, red once a rollout failed). */
  color?: boolean;
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

/** How a rollout ended, as the display counts it. */
export type RolloutOutcome = 'ok' | 'failed' | 'abandoned';

/** A running progress display. */
export interface Progress {
  readonly state: ProgressState;
  started(): void;
  finished(outcome: RolloutOutcome): void;
  /** Stops the display and prints the final line. Idempotent. */
  stop(): void;
}

/** How one progress line is drawn. */
export interface ProgressLook {
  /** Bar width at most. Default 24. */
  barWidth?: number;
  /** Columns the line may take; the bar gives way (down to 8). */
  columns?: number;
  color?: boolean;
  /** The last line: the elapsed time instead of an ETA. */
  final?: boolean;
}

/**
 * Formats one progress line, e.g. `[#####.......] 5/10  4 ok  1 failed  2 running  1.0/s  ETA 5s`;
 * `elapsedMs` gives the rate and the ETA. Nothing to run is an empty bar, not a full one.
 */
export function formatProgress(state: ProgressState, elapsedMs: number, look: ProgressLook | number = {}): string {
  const options = typeof look === 'number' ? { barWidth: look } : look;
  const finished = state.done + state.failed + state.abandoned;
  const rate = elapsedMs > 0 ? (finished * 1000) / elapsedMs : 0;
  const remaining = state.total - finished;
  const timing = options.final === true ? `in ${formatDuration(elapsedMs)}` : `ETA ${remaining === 0 ? '0s' : rate > 0 ? formatDuration((remaining / rate) * 1000) : '--'}`;
  const failed = `${state.failed} failed`;
  const abandoned = state.abandoned > 0 ? `  ${state.abandoned} abandoned` : '';
  const counts = `${finished}/${state.total}  ${state.done} ok  ${state.failed > 0 && options.color === true ? `\x1b[31m${failed}\x1b[39m` : failed}${abandoned}${options.final === true ? '' : `  ${state.inFlight} running`}`;
  const tail = `${counts}  ${rate.toFixed(1)}/s  ${timing}`;
  const visible = tail.replace(/\x1b\[\d+m/g, '').length;
  const most = options.barWidth ?? 24;
  const width = Math.max(Math.min(8, most), Math.min(most, options.columns === undefined ? Infinity : options.columns - visible - 4));
  const filled = state.total === 0 ? 0 : Math.round((finished / state.total) * width);
  const done = '#'.repeat(filled);
  const paint = options.color === true ? `\x1b[${state.failed > 0 ? 31 : 32}m${done}\x1b[39m` : done;
  return `[${paint}${'.'.repeat(width - filled)}] ${tail}`;
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
  const state: ProgressState = { total: options.total, done: 0, failed: 0, abandoned: 0, inFlight: 0 };
  const { sink } = options;
  const line = (final: boolean) =>
    formatProgress(state, now() - start, { final, ...(sink.isTty ? { color: sink.color === true, ...(sink.columns === undefined ? {} : { columns: sink.columns }) } : {}) });
  const draw = (final = false) => (sink.isTty ? sink.write(`\r\x1b[2K${line(final)}`) : sink.write(`gym: rollouts ${line(final)}\n`));
  const timer = setInterval(() => draw(), sink.isTty ? (options.redrawMs ?? 100) : (options.intervalMs ?? 5000));
  timer.unref();
  let stopped = false;
  return {
    state,
    started: () => void state.inFlight++,
    finished(outcome) {
      state.inFlight--;
      if (outcome === 'ok') state.done++;
      else if (outcome === 'failed') state.failed++;
      else state.abandoned++;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      draw(true);
      if (sink.isTty) sink.write('\n');
    },
  };
}

/**
 * Bounded, never-rejecting waits for flush and shutdown steps.
 * @module
 */
import { lensWarn, LENS_WARNINGS } from '../warnings.js';

/** Progress of the exporters: a wait goes on while answers keep arriving. */
export interface ExportProgress {
  /** Export answers so far (any outcome). */
  answers(): number;
  /** Give up once no answer arrived for this long. */
  stallMs: number;
}

/**
 * Runs `step` and waits for it at most `timeoutMs` — and, with `progress`, no longer than
 * `progress.stallMs` without an export answering (a silent collector is given up on quickly, a
 * slow one that keeps answering gets the whole time). A rejection or a timeout becomes one
 * warning naming `signal`; the returned promise always resolves.
 */
export function settle(signal: string, work: () => Promise<unknown>, timeoutMs: number, progress?: ExportProgress): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    let lastAnswers = progress?.answers() ?? 0;
    let lastProgress = started;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const giveUp = (why: string): void => {
      settled = true;
      lensWarn(LENS_WARNINGS.EXPORT_FAILED, `Flushing ${signal} did not finish (${why}); what it still held is counted as lost.`);
      resolve();
    };
    // with progress, checked ten times per stall period, so giving up is late by a tenth of it at most
    const step = progress === undefined ? timeoutMs : Math.max(1, progress.stallMs / 10);
    const check = (): void => {
      const now = Date.now();
      if (now - started >= timeoutMs) return giveUp(`not within ${timeoutMs} ms`);
      if (progress !== undefined) {
        const answers = progress.answers();
        if (answers !== lastAnswers) {
          lastAnswers = answers;
          lastProgress = now;
        } else if (now - lastProgress >= progress.stallMs) return giveUp(`no export answered for ${progress.stallMs} ms`);
      }
      timer = setTimeout(check, Math.max(1, Math.min(timeoutMs - (now - started), step)));
      timer.unref();
    };
    timer = setTimeout(check, Math.min(timeoutMs, step));
    timer.unref();
    const finish = (): void => {
      settled = true;
      clearTimeout(timer);
      resolve();
    };
    let running: Promise<unknown>;
    try {
      running = work();
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(finish, (error: unknown) => {
      if (settled) return;
      const reason = error instanceof Error ? error.message : String(error);
      lensWarn(LENS_WARNINGS.EXPORT_FAILED, `Flushing ${signal} failed (${reason}); what it still held is counted as lost.`);
      finish();
    });
  });
}

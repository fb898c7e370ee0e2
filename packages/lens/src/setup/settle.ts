/**
 * Bounded, never-rejecting waits for flush and shutdown steps.
 * @module
 */
import { lensWarn, LENS_WARNINGS } from '../warnings.js';

/**
 * Runs `step` and waits for it at most `timeoutMs`. A rejection or a timeout becomes one warning
 * naming `signal`; the returned promise always resolves.
 */
export function settle(signal: string, step: () => Promise<unknown>, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      lensWarn(LENS_WARNINGS.EXPORT_FAILED, `Flushing ${signal} did not finish within ${timeoutMs} ms; unexported ${signal} may be lost.`);
      resolve();
    }, timeoutMs);
    timer.unref();
    const finish = (): void => {
      clearTimeout(timer);
      resolve();
    };
    let running: Promise<unknown>;
    try {
      running = step();
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(finish, (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      lensWarn(LENS_WARNINGS.EXPORT_FAILED, `Flushing ${signal} failed (${reason}); unexported ${signal} may be lost.`);
      finish();
    });
  });
}

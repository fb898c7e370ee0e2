/**
 * `gym eval health-check <rollouts.jsonl>`: rollout verdicts from the evidence in a run's rows,
 * and the one-line summary. Also run after `gym eval run` when rollout evidence is on.
 * @module
 */
import { runHealthCheck } from '../../evidence/health-report.js';
import type { CliIo } from '../io.js';

/** Flags of `gym eval health-check`. */
export interface EvalHealthCheckFlags {
  /** Comma-separated check ids not to run. */
  ignore?: string;
  /** The original's spelling of `--ignore`. */
  ignoreChecks?: string;
}

/** Splits `a,b` flag values (repeatable flags arrive joined). */
export function checkIds(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Runs the health check of `rolloutsFile` and prints its summary and files. */
export function printHealthCheck(rolloutsFile: string, ignore: string[], io: CliIo): void {
  const result = runHealthCheck({ rolloutsFile, ignore });
  io.out(result.line);
  if (result.hint !== undefined) io.out(result.hint);
  io.out(`verdicts: ${result.verdictsPath}`);
  io.out(`quality summary: ${result.summaryPath}`);
}

/** Runs `gym eval health-check`. Unhealthy rollouts are a finding, not a failure: exit 0. */
export function evalHealthCheck(rolloutsFile: string, flags: EvalHealthCheckFlags, io: CliIo): void {
  printHealthCheck(rolloutsFile, [...checkIds(flags.ignore), ...checkIds(flags.ignoreChecks)], io);
}

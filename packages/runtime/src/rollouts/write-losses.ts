/**
 * The summary lines of records a run could not write (a full disk named as such): the rows of the
 * results file and of the failures sidecar that are missing from them.
 * @module
 */
import type { AppendLosses } from './rollout-files.js';

/** One line per file that lost records; none when every record was written. */
export function describeWriteLosses(losses: { output: AppendLosses; failures: AppendLosses }, paths: { output: string; failures: string }): string[] {
  const lines: string[] = [];
  const line = (label: string, lost: AppendLosses, path: string, consequence: string) => {
    if (lost.records === 0) return;
    lines.push(`${label}: ${lost.records} row${lost.records === 1 ? '' : 's'} not written to ${path}: ${lost.last?.reason ?? 'write failed'}; ${consequence}`);
  };
  line('results', losses.output, paths.output, 'those rollouts are not counted complete; run again with --resume once there is space');
  line('failures', losses.failures, paths.failures, 'their attempts are not counted by --resume');
  return lines;
}

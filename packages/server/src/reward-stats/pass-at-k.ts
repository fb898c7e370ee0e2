/**
 * pass@k helpers, as the original's `compute_pass_majority_metrics`:
 * `pass@{k}/{name}` is the unbiased estimator 1 − C(n−c, k)/C(n, k) for binary scores and the
 * max of the first k for continuous ones; `pass@1[avg-of-{k}]/{name}` averages the first k.
 * Accuracies are percentages. Pure.
 * @module
 */

/** C(n, k) as a float, exact for the small n of eval runs. */
export function binomial(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= Math.min(k, n - k); i++) result = (result * (n - Math.min(k, n - k) + i)) / i;
  return result;
}

/** Probability that at least one of k draws (without replacement) from n samples with c correct is correct. */
export function passAtK(n: number, c: number, k: number): number {
  if (n - c < k) return 1;
  return 1 - binomial(n - c, k) / binomial(n, k);
}

/** True when every score is 0 or 1. */
function isBinary(values: readonly number[]): boolean {
  return values.every((v) => v === 0 || v === 1);
}

/**
 * pass@k metrics for one score over tasks (`tasks[i]` = the scores of task i's rollouts, in
 * rollout order), for k = 1..max rollouts. Also `…/std_dev_across_runs` and
 * `…/std_err_across_runs` of pass@1[avg-of-k] across rollout indices, when k ≥ 2.
 */
export function passAtKMetrics(tasks: readonly (readonly number[])[], name: string): Record<string, number> {
  const metrics: Record<string, number> = {};
  if (tasks.length === 0) return metrics;
  const maxK = Math.max(...tasks.map((t) => t.length));
  for (let k = 1; k <= maxK; k++) {
    const pass: number[] = [];
    const avg: number[] = [];
    for (const scores of tasks) {
      if (scores.length >= k) {
        const correct = scores.filter((s) => s !== 0).length;
        pass.push(isBinary(scores) ? passAtK(scores.length, correct, k) : Math.max(...scores.slice(0, k)));
      }
      const firstK = scores.slice(0, k);
      if (firstK.length > 0) avg.push(firstK.reduce((a, b) => a + b, 0) / firstK.length);
    }
    if (pass.length > 0) metrics[`pass@${k}/${name}`] = (100 * pass.reduce((a, b) => a + b, 0)) / pass.length;
    if (avg.length > 0) metrics[`pass@1[avg-of-${k}]/${name}`] = (100 * avg.reduce((a, b) => a + b, 0)) / avg.length;
  }
  // per rollout index: pass@1 over the tasks that have that rollout
  const perRun: number[] = [];
  for (let run = 0; run < maxK; run++) {
    const scores = tasks.filter((t) => t.length > run).map((t) => t[run]!);
    if (scores.length > 0) perRun.push((100 * scores.reduce((a, b) => a + b, 0)) / scores.length);
  }
  for (let k = 2; k <= maxK; k++) {
    const runs = perRun.slice(0, k);
    if (runs.length < 2) continue;
    const mean = runs.reduce((a, b) => a + b, 0) / runs.length;
    const std = Math.sqrt(runs.reduce((acc, x) => acc + (x - mean) ** 2, 0) / (runs.length - 1));
    metrics[`pass@1[avg-of-${k}]/${name}/std_dev_across_runs`] = std;
    metrics[`pass@1[avg-of-${k}]/${name}/std_err_across_runs`] = std / Math.sqrt(runs.length);
  }
  return metrics;
}

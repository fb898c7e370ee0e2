/**
 * MCQA's own aggregate metrics, as the original's MCQA server computes them over the verify
 * responses grouped by task: for every k up to the most rollouts of a task, `pass@k`,
 * `pass@1[avg-of-k]` and `majority@k` (vote over `extracted_answer`) of `accuracy` (the reward)
 * and `no_answer` (1 when no letter was read); `per_sample_aggregate` (pass@1 of each rollout
 * index); the spread of pass@1 across rollout indices. Percentages. Pure.
 * @module
 */

/** One verify response as the metrics read it. */
export interface ScoredRollout {
  reward: number;
  extracted_answer?: unknown;
  [field: string]: unknown;
}

type Scores = Record<string, number>;

const SCORE_NAMES = ['accuracy', 'no_answer'] as const;

/** C(n, k) as a float. */
function comb(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= Math.min(k, n - k); i++) result = (result * (n - i + 1)) / i;
  return result;
}

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** The metrics of `tasks` (`tasks[i]` = the rollouts of task i, in rollout order). Empty for no tasks. */
export function passMajorityMetrics(tasks: readonly (readonly ScoredRollout[])[]): Record<string, unknown> {
  if (tasks.length === 0) return {};
  const maxK = Math.max(...tasks.map((t) => t.length));
  const scores: Scores[][] = tasks.map((t) => t.map((r) => ({ accuracy: Number(r.reward), no_answer: answerOf(r) === null ? 1 : 0 })));
  const answers = tasks.map((t) => t.map(answerOf));
  const metrics: Record<string, unknown> = {};
  for (let k = 1; k <= maxK; k++) {
    for (const name of SCORE_NAMES) {
      const pass = scores
        .filter((t) => t.length >= k)
        .map((t) =>
          passOfTask(
            t.map((s) => s[name]!),
            k,
          ),
        );
      if (pass.length > 0) metrics[`pass@${k}/${name}`] = 100 * mean(pass);
      metrics[`pass@1[avg-of-${k}]/${name}`] = 100 * mean(scores.map((t) => mean(t.slice(0, k).map((s) => s[name]!))));
      metrics[`majority@${k}/${name}`] =
        100 *
        mean(
          scores.map((t, i) =>
            majorityOfTask(
              answers[i]!.slice(0, k),
              t.slice(0, k).map((s) => s[name]!),
            ),
          ),
        );
    }
  }
  const perSample: Record<string, number[]> = {};
  for (const name of SCORE_NAMES) {
    perSample[name] = [];
    for (let run = 0; run < maxK; run++) {
      const runScores = scores.filter((t) => t.length > run).map((t) => t[run]![name]!);
      if (runScores.length > 0) perSample[name].push(100 * mean(runScores));
    }
  }
  metrics['per_sample_aggregate'] = perSample;
  for (let k = 2; k <= maxK; k++) {
    for (const name of SCORE_NAMES) {
      const runs = perSample[name]!.slice(0, k);
      if (runs.length < 2) continue;
      const m = mean(runs);
      const stdDev = Math.sqrt(runs.reduce((acc, v) => acc + (v - m) ** 2, 0) / (runs.length - 1));
      metrics[`pass@1[avg-of-${k}]/${name}/std_dev_across_runs`] = stdDev;
      metrics[`pass@1[avg-of-${k}]/${name}/std_err_across_runs`] = stdDev / Math.sqrt(runs.length);
    }
  }
  return metrics;
}

/** The headline metrics MCQA reports, picked from the full agent metrics. */
export function mcqaKeyMetrics(agentMetrics: Record<string, unknown>): Record<string, unknown> {
  const key: Record<string, unknown> = {};
  if ('mean/reward' in agentMetrics) key['mean/reward'] = agentMetrics['mean/reward'];
  Object.assign(key, highestK(agentMetrics, 'pass@1[avg-of-{k}]', ['accuracy', 'no_answer']));
  Object.assign(key, highestK(agentMetrics, 'pass@{k}', ['no_answer']));
  Object.assign(key, highestK(agentMetrics, 'majority@{k}', ['accuracy']));
  if ('pass@1/accuracy' in agentMetrics) key['pass@1/accuracy'] = agentMetrics['pass@1/accuracy'];
  return key;
}

/** The entries `<pattern with k>/<score>` for the listed scores at the largest k present. */
export function highestK(agentMetrics: Record<string, unknown>, pattern: string, scoreNames: readonly string[]): Record<string, unknown> {
  const escaped = pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{k\\}', '(\\d+)');
  const regex = new RegExp(`^${escaped}/(.+)$`);
  const matches: Array<[number, string]> = [];
  for (const key of Object.keys(agentMetrics)) {
    const m = regex.exec(key);
    if (m !== null && scoreNames.includes(m[2]!)) matches.push([Number(m[1]), key]);
  }
  if (matches.length === 0) return {};
  const maxK = Math.max(...matches.map(([k]) => k));
  return Object.fromEntries(matches.filter(([k]) => k === maxK).map(([, key]) => [key, agentMetrics[key]]));
}

function answerOf(rollout: ScoredRollout): unknown {
  return rollout.extracted_answer ?? null;
}

/** pass@k of one task: unbiased estimate for 0/1 scores, best of the first k otherwise. */
function passOfTask(values: readonly number[], k: number): number {
  if (!values.every((v) => v === 0 || v === 1)) return Math.max(...values.slice(0, k));
  const incorrect = values.filter((v) => v === 0).length;
  return incorrect < k ? 1 : 1 - comb(incorrect, k) / comb(values.length, k);
}

/** The score of the most common (answer, score) among rollouts with an answer; ties averaged; 0 when none answered. */
function majorityOfTask(answers: readonly unknown[], values: readonly number[]): number {
  const counts = new Map<string, { score: number; count: number }>();
  answers.forEach((answer, i) => {
    if (answer === null) return;
    const id = JSON.stringify([answer, values[i]]);
    const entry = counts.get(id) ?? { score: values[i]!, count: 0 };
    entry.count++;
    counts.set(id, entry);
  });
  if (counts.size === 0) return 0;
  const top = Math.max(...[...counts.values()].map((e) => e.count));
  const tied = [...counts.values()].filter((e) => e.count === top);
  return mean(tied.map((e) => e.score));
}

// Runs the registered mitata benchmarks and prints, after mitata's own table, the ratios of each
// benchmark to a named baseline, measured in the same run.
import { run } from 'mitata';

export interface Ratio {
  subject: string;
  baseline: string;
  /** What the ratio must not exceed (subject avg / baseline avg), if there is a budget. */
  budget?: number;
}

interface TrialLike {
  alias: string;
  runs: Array<{ stats?: { avg: number } }>;
}

export async function runAndReport(ratios: Ratio[]): Promise<Map<string, number>> {
  const { benchmarks } = (await run()) as unknown as { benchmarks: TrialLike[] };
  const avg = new Map<string, number>();
  for (const trial of benchmarks) {
    const stats = trial.runs[0]?.stats;
    if (stats) avg.set(trial.alias, stats.avg);
  }
  console.log('\n| subject | baseline | subject ns | baseline ns | ratio | budget |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const { subject, baseline, budget } of ratios) {
    const s = avg.get(subject);
    const b = avg.get(baseline);
    if (s === undefined || b === undefined) throw new Error(`missing benchmark ${s === undefined ? subject : baseline}`);
    const ratio = s / b;
    const verdict = budget === undefined ? '' : `≤ ${budget}× ${ratio <= budget ? 'ok' : 'OVER'}`;
    console.log(`| ${subject} | ${baseline} | ${s.toFixed(2)} | ${b.toFixed(2)} | ${ratio.toFixed(2)}× | ${verdict} |`);
  }
  return avg;
}

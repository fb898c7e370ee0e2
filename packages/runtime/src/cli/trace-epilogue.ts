/**
 * What `gym eval run` prints at the end of a run with console telemetry: the tree of its slowest
 * rollout (`gym trace show --slowest 1`) and an HTML report written next to the logs — the answer
 * to "where did the time go" without another command.
 * @module
 */
import { join } from 'node:path';
import type { CliIo } from './io.js';

/** True when this run's processes wrote console telemetry (into the log dir). */
export function wroteConsoleTelemetry(env: NodeJS.ProcessEnv): boolean {
  const enabled = (env['NEMO_GYM_OTEL_ENABLED'] ?? env['NEMO_LENS_ENABLED'] ?? '').trim().toLowerCase();
  const exporter = (env['NEMO_GYM_OTEL_EXPORTER'] ?? env['NEMO_LENS_EXPORTER'] ?? '').trim().toLowerCase();
  return ['1', 'true', 'yes', 'on'].includes(enabled) && exporter === 'console';
}

/**
 * Prints the slowest rollout's trace and writes `<logDir>/report.html` — with each rollout's
 * evidence when `evidenceRollouts` (a rollouts file of a run with rollout evidence) is given; the
 * terminal shows no prompt content. Never fails the run.
 */
export async function printTraceEpilogue(logDir: string, io: CliIo, evidenceRollouts?: string): Promise<void> {
  try {
    const { outputWidth, report, show, useColor } = await import('@gym/trace');
    const out = { write: (text: string) => io.out(text.trimEnd()), error: (text: string) => io.err(`gym: ${text.trimEnd()}`) };
    io.out('\nslowest rollout (gym trace show --slowest 1):');
    const width = outputWidth();
    await show({ paths: [logDir], slowest: 1, color: io.isTty && useColor(), ...(width === undefined ? {} : { width }) }, out);
    await report({ paths: [logDir], out: join(logDir, 'report.html'), ...(evidenceRollouts === undefined ? {} : { evidence: [evidenceRollouts] }) }, out);
    io.out(`open the report: ${join(logDir, 'report.html')}   (more: gym trace why <rollout>, gym trace stats)`);
  } catch (error) {
    io.err(`gym: could not summarise the trace: ${(error as Error).message}`);
  }
}

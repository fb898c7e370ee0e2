/**
 * `gym eval run`: collect rollouts, end to end (start the servers, collect, stop them) or with
 * `--no-serve` against servers found through the head server. Behaviour: docs/rollouts.md.
 * @module
 */
import { resolve } from 'node:path';
import { loadConfig } from '../../config/load.js';
import { applyOverrides } from '../../config/override-apply.js';
import { parseOverrides } from '../../config/override-parse.js';
import { lookupPath, searchRoots } from '../../config/search-roots.js';
import { ExitError } from '../../errors.js';
import { createHttpClient } from '../../http/client.js';
import { createRunLogDir } from '../../orchestrator/log-dir.js';
import { collectRollouts } from '../../rollouts/collect.js';
import { agentUrls, chooseAgent, fetchEnvironment } from '../../rollouts/environment.js';
import { formatSummary } from '../../rollouts/summary.js';
import { setUpCliTelemetry } from '../../telemetry/cli-telemetry.js';
import { withJobSpan } from '../../telemetry/job-span.js';
import { processTelemetry } from '../../telemetry/process-telemetry.js';
import type { GymTelemetry } from '../../telemetry/state.js';
import { INSTALL_ROOT, toLoadConfigOptions } from '../config-options.js';
import { findHeadUrl } from '../head-url.js';
import { startCliEnvironment } from '../start-cli-environment.js';
import { printTraceEpilogue, wroteConsoleTelemetry } from '../trace-epilogue.js';
import { defaultOutputPath, evalRunSettings } from './eval-run-settings.js';
import type { CollectionEnvironment } from '../../rollouts/environment.js';
import type { CliIo } from '../io.js';
import type { EvalRunFlags } from './eval-run-settings.js';

export type { EvalRunFlags } from './eval-run-settings.js';

/** Runs `gym eval run`. Exits 1 when rollouts remain incomplete, 130 when interrupted. */
export async function evalRun(flags: EvalRunFlags, overrides: string[], io: CliIo): Promise<void> {
  const cwd = process.cwd();
  // one time stamp names everything of this run: the log dir and the results files
  const startedAt = new Date();
  const stop = new AbortController();
  const abandon = new AbortController();
  let sigint = false;
  let starting = false;
  const onSigint = () => {
    if (starting) return; // the start's own handler stops the servers started so far
    sigint = true;
    if (!stop.signal.aborted) {
      io.err('gym: interrupted: no new rollouts start; waiting up to 10 s for those in flight (Ctrl-C again to abandon them)');
      stop.abort();
    } else abandon.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    if (flags.serve === false) {
      if (flags.model !== undefined || flags.modelUrl !== undefined || flags.modelApiKey !== undefined) io.err('gym: warning: --model/--model-url/--model-api-key are ignored with --no-serve (the servers already run)');
      const raw = applyOverrides({}, parseOverrides(overrides));
      const head = await findHeadUrl({ overrides, cwd, ...(flags.headUrl === undefined ? {} : { flag: flags.headUrl }) });
      const http = createHttpClient({ retry: { maxAttempts: 2 } });
      const environment = await fetchEnvironment(http, head).finally(() => http.close());
      // a log dir only when this process writes console telemetry (the servers log elsewhere)
      let madeLogDir: string | undefined;
      const logDir = () => (madeLogDir ??= flags.logDir ?? createRunLogDir(cwd, startedAt));
      const cli = await setUpCliTelemetry({ block: environment.config['telemetry'] as Record<string, unknown> | undefined, logDir, role: 'collector' });
      try {
        await collect(flags, { ...environment, config: { ...environment.config, ...raw } }, [cwd, INSTALL_ROOT], { stop, abandon, sigint: () => sigint }, io, cli.telemetry, { startedAt, cwd, ...(madeLogDir === undefined ? {} : { logDir: madeLogDir }) });
      } finally {
        await cli.close();
      }
      return;
    }
    const options = toLoadConfigOptions(flags, overrides, cwd);
    const config = await loadConfig(options);
    for (const warning of config.warnings) io.err(`gym: warning: ${warning}`);
    const roots = searchRoots(options.rootDir, options.selectors?.searchDirs, process.env);
    starting = true;
    const { env, cli, close } = await startCliEnvironment(
      { config, roots, cwd, startedAt, role: 'collector', showTelemetry: flags.showTelemetry ?? false, verbose: flags.verbose ?? false, ...(flags.logDir === undefined ? {} : { logDir: flags.logDir }) },
      io,
    ).finally(() => (starting = false));
    let collecting = true;
    // a dead server fails every later rollout: stop dispatching instead of burning their attempts
    void env.firstExit.then((exit) => {
      if (!collecting) return;
      io.err(`gym: server '${exit.name}' exited (${exit.code}); no new rollouts start`);
      stop.abort();
    });
    try {
      await collect(flags, { config: config.raw, instances: env.servers.map((s) => s.display) }, [cwd, ...roots], { stop, abandon, sigint: () => sigint }, io, cli.telemetry, { startedAt, cwd, logDir: env.logDir });
    } finally {
      collecting = false;
      await close();
      io.err(`gym: servers stopped; logs in ${env.logDir}`);
      if (wroteConsoleTelemetry(cli.env)) await printTraceEpilogue(env.logDir, io);
    }
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}

async function collect(
  flags: EvalRunFlags,
  environment: CollectionEnvironment,
  roots: readonly string[],
  signals: { stop: AbortController; abandon: AbortController; sigint: () => boolean },
  io: CliIo,
  telemetry: GymTelemetry | undefined,
  run: { startedAt: Date; cwd: string; logDir?: string },
): Promise<void> {
  const settings = evalRunSettings(flags, environment.config);
  const output = resolve(settings.output ?? defaultOutputPath(chooseAgent(agentUrls(environment.instances), settings.agent, false), run.startedAt));
  const instrument = processTelemetry(telemetry).client;
  const result = await withJobSpan(telemetry, () => collectRollouts({
    ...settings,
    environment,
    output,
    input: settings.input === undefined ? undefined : resolve(settings.input),
    resolvePath: (path) => lookupPath(path, roots).found ?? path,
    stopSignal: signals.stop.signal,
    abandonSignal: signals.abandon.signal,
    progress: {
      write: (text) => void process.stderr.write(text),
      isTty: process.stderr.isTTY === true,
      color: process.stderr.isTTY === true && (process.env['NO_COLOR'] ?? '') === '',
      ...(process.stderr.isTTY === true ? { columns: process.stderr.columns } : {}),
    },
    onInfo: (line) => io.err(`gym: ${line}`),
    onWarning: (line) => io.err(`gym: warning: ${line}`),
    ...(instrument === undefined ? {} : { instrument }),
  }));
  for (const line of formatSummary(result, { cwd: run.cwd, ...(run.logDir === undefined ? {} : { logDir: run.logDir }) })) io.out(line);
  if (signals.sigint() && result.incomplete > 0) throw new ExitError(130);
  if (result.incomplete > 0) throw new ExitError(1);
}

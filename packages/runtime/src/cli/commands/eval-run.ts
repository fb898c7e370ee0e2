/**
 * `gym eval run`: collect rollouts, end to end (start the servers, collect, stop them) or with
 * `--no-serve` against servers found through the head server. Behaviour: docs/rollouts.md.
 * @module
 */
import { resolve } from 'node:path';
import { loadConfig } from '../../config/load.js';
import { applyOverrides } from '../../config/override-apply.js';
import { parseOverrides } from '../../config/override-parse.js';
import { DEFAULT_HEAD_SERVER_PORT, DEFAULT_HOST } from '../../config/ports.js';
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
import { INSTALL_ROOT, argvSecretWarnings, toLoadConfigOptions } from '../config-options.js';
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
  const stop = new AbortController();
  const abandon = new AbortController();
  let sigint = false;
  const onSigint = () => {
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
      const head = flags.headUrl ?? `http://${DEFAULT_HOST}:${DEFAULT_HEAD_SERVER_PORT}`;
      const http = createHttpClient({ retry: { maxAttempts: 2 } });
      const environment = await fetchEnvironment(http, head).finally(() => http.close());
      // a log dir only when this process writes console telemetry (the servers log elsewhere)
      const logDir = () => flags.logDir ?? createRunLogDir(cwd);
      const cli = await setUpCliTelemetry({ block: environment.config['telemetry'] as Record<string, unknown> | undefined, logDir, role: 'collector' });
      try {
        await collect(flags, { ...environment, config: { ...environment.config, ...raw } }, [cwd, INSTALL_ROOT], { stop, abandon, sigint: () => sigint }, io, cli.telemetry);
      } finally {
        await cli.close();
      }
      return;
    }
    const options = toLoadConfigOptions(flags, overrides, cwd);
    const config = await loadConfig(options);
    for (const warning of [...argvSecretWarnings(flags, overrides), ...config.warnings]) io.err(`gym: warning: ${warning}`);
    const roots = searchRoots(options.rootDir, options.selectors?.searchDirs, process.env);
    const { env, cli, close } = await startCliEnvironment(
      { config, roots, cwd, role: 'collector', showTelemetry: flags.showTelemetry ?? false, ...(flags.logDir === undefined ? {} : { logDir: flags.logDir }) },
      io,
    );
    let collecting = true;
    // a dead server fails every later rollout: stop dispatching instead of burning their attempts
    void env.firstExit.then((exit) => {
      if (!collecting) return;
      io.err(`gym: server '${exit.name}' exited (${exit.code}); no new rollouts start`);
      stop.abort();
    });
    try {
      await collect(flags, { config: config.raw, instances: env.servers.map((s) => s.display) }, [cwd, ...roots], { stop, abandon, sigint: () => sigint }, io, cli.telemetry);
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
): Promise<void> {
  const settings = evalRunSettings(flags, environment.config);
  const output = resolve(settings.output ?? defaultOutputPath(chooseAgent(agentUrls(environment.instances), settings.agent, false)));
  const instrument = processTelemetry(telemetry).client;
  const result = await withJobSpan(telemetry, () => collectRollouts({
    ...settings,
    environment,
    output,
    input: settings.input === undefined ? undefined : resolve(settings.input),
    resolvePath: (path) => lookupPath(path, roots).found ?? path,
    stopSignal: signals.stop.signal,
    abandonSignal: signals.abandon.signal,
    progress: { write: (text) => void process.stderr.write(text), isTty: process.stderr.isTTY === true },
    onInfo: (line) => io.err(`gym: ${line}`),
    onWarning: (line) => io.err(`gym: warning: ${line}`),
    ...(instrument === undefined ? {} : { instrument }),
  }));
  for (const line of formatSummary(result)) io.out(line);
  if (signals.sigint() && result.incomplete > 0) throw new ExitError(130);
  if (result.incomplete > 0) throw new ExitError(1);
}

/**
 * `gym eval run`: collect rollouts, end to end (start the servers, collect, stop them) or with
 * `--no-serve` against servers found through the head server. Behaviour: docs/rollouts.md.
 * @module
 */
import { resolve } from 'node:path';
import { loadConfig } from '@gym/server/internal/config/load.js';
import { applyOverrides } from '@gym/server/internal/config/override-apply.js';
import { parseOverrides } from '@gym/server/internal/config/override-parse.js';
import { lookupPath, searchRoots } from '@gym/server/internal/config/search-roots.js';
import { ExitError } from '@gym/server/internal/errors.js';
import { createHttpClient } from '@gym/server/internal/http/client.js';
import { withDefaultScope } from '@gym/server/internal/http/instrumentation.js';
import { createRunLogDir } from '../../orchestrator/log-dir.js';
import { isBroken } from '@gym/server/internal/server-process/stdio-guard.js';
import { collectRollouts } from '../../rollouts/collect.js';
import { checkRunInput } from '../../rollouts/preflight.js';
import { agentUrls, chooseAgent, fetchEnvironment } from '../../rollouts/environment.js';
import { loadPromptConfig } from '../../rollouts/prompt-config.js';
import { formatSummary } from '../../rollouts/summary.js';
import { setUpCliTelemetry } from '../../telemetry/cli-telemetry.js';
import { withJobSpan } from '../../telemetry/job-span.js';
import { processTelemetry } from '@gym/server/internal/telemetry/process-telemetry.js';
import type { GymTelemetry } from '@gym/server/internal/telemetry/state.js';
import { INSTALL_ROOT, argvSecretWarnings, toLoadConfigOptions } from '../config-options.js';
import { findHeadUrl } from '../head-url.js';
import { startCliEnvironment } from '../start-cli-environment.js';
import { abandonedStopLine, exitStopped, receivedText, unlessAbandoned, watchStopRequests } from '../stop-requests.js';
import { printTraceEpilogue, wroteConsoleTelemetry } from '../trace-epilogue.js';
import { defaultOutputPath, evalRunSettings } from './eval-run-settings.js';
import { checkIds, printHealthCheck } from './eval-health-check.js';
import type { CollectionEnvironment } from '../../rollouts/environment.js';
import type { CliIo } from '../io.js';
import { startStatusLine } from '../status-line.js';
import type { EvalRunFlags } from './eval-run-settings.js';

export type { EvalRunFlags } from './eval-run-settings.js';

/** Runs `gym eval run`. Exits 1 when rollouts remain incomplete, 128 + n when stopped by a signal (130 for Ctrl-C). */
export async function evalRun(flags: EvalRunFlags, overrides: string[], io: CliIo): Promise<void> {
  const cwd = process.cwd();
  // one time stamp names everything of this run: the log dir and the results files
  const startedAt = new Date();
  let collecting = false;
  const requests = watchStopRequests((signal, first) => {
    // during start-up the start says what it stops
    if (first && collecting) io.err(`gym: ${signal === 'SIGINT' ? 'interrupted' : receivedText(signal)}: no new rollouts start; waiting up to 10 s for those in flight (Ctrl-C again to abandon them)`);
  });
  const stop = new AbortController();
  requests.stop.addEventListener('abort', () => stop.abort(), { once: true });
  const signals = { stop, abandon: requests.abandon };
  try {
    if (flags.serve === false) {
      if (flags.model !== undefined || flags.modelUrl !== undefined || flags.modelApiKey !== undefined)
        io.err('gym: warning: --model/--model-url/--model-api-key are ignored with --no-serve (the servers already run)');
      const raw = applyOverrides({}, parseOverrides(overrides));
      const head = await findHeadUrl({ overrides, cwd, ...(flags.headUrl === undefined ? {} : { flag: flags.headUrl }) });
      const http = createHttpClient({ retry: { maxAttempts: 2 } });
      const environment = await fetchEnvironment(http, head).finally(() => http.close());
      // a log dir only when this process writes console telemetry (the servers log elsewhere)
      let madeLogDir: string | undefined;
      const logDir = () => (madeLogDir ??= flags.logDir ?? createRunLogDir(cwd, startedAt));
      const cli = await setUpCliTelemetry({ block: environment.config['telemetry'] as Record<string, unknown> | undefined, logDir, role: 'collector' });
      collecting = true;
      try {
        await collect(flags, { ...environment, config: { ...environment.config, ...raw } }, [cwd, INSTALL_ROOT], signals, io, cli.telemetry, {
          startedAt,
          cwd,
          ...(madeLogDir === undefined ? {} : { logDir: madeLogDir }),
        });
      } finally {
        await cli.close();
      }
    } else {
      const options = toLoadConfigOptions(flags, overrides, cwd);
      const config = await loadConfig(options);
      for (const warning of [...argvSecretWarnings(flags, overrides), ...config.warnings]) io.err(`gym: warning: ${warning}`);
      const roots = searchRoots(options.rootDir, options.selectors?.searchDirs, process.env);
      // a prompt config, an input file or a split's datasets that cannot be used fail before any server starts
      const settings = evalRunSettings(flags, config.raw);
      if (!settings.resume) {
        const resolvePath = (path: string) => lookupPath(path, [cwd, ...roots]).found ?? path;
        if (settings.promptConfig !== undefined) loadPromptConfig(resolvePath(settings.promptConfig), settings.promptConfig);
        checkRunInput(config.raw, {
          input: settings.input === undefined ? undefined : resolve(settings.input),
          split: settings.split,
          agent: settings.agent,
          strictInput: settings.strictInput,
          promptInput: settings.promptConfig !== undefined,
          resolvePath,
        });
      }
      const { env, cli, close } = await startCliEnvironment(
        {
          config,
          roots,
          cwd,
          startedAt,
          role: 'collector',
          showTelemetry: flags.showTelemetry ?? false,
          verbose: flags.verbose ?? false,
          stopSignal: requests.stop,
          ...(flags.logDir === undefined ? {} : { logDir: flags.logDir }),
        },
        io,
      );
      collecting = true;
      const run: CollectRun = { startedAt, cwd, logDir: env.logDir };
      // a dead server fails every later rollout: stop dispatching instead of burning their attempts
      void env.firstExit.then((exit) => {
        if (!collecting) return;
        io.err(`gym: server '${exit.name}' exited (${exit.code}); no new rollouts start`);
        stop.abort();
      });
      try {
        await collect(flags, { config: config.raw, instances: env.servers.map((s) => s.display) }, [cwd, ...roots], signals, io, cli.telemetry, run);
      } finally {
        collecting = false;
        if ((await unlessAbandoned(requests, close())) === 'abandoned') io.err(abandonedStopLine(requests));
        else {
          io.err(`gym: servers stopped; logs in ${env.logDir}`);
          if (wroteConsoleTelemetry(cli.env)) await printTraceEpilogue(env.logDir, io, run.evidenceRollouts);
        }
      }
    }
  } catch (error) {
    // a stop request ends the run with its own exit code; a start-up cut short by it is not an error
    const signal = requests.received();
    if (signal !== undefined && !(error instanceof ExitError && error.exitCode !== 1)) exitStopped(signal, io);
    throw error;
  } finally {
    requests.dispose();
  }
  const signal = requests.received();
  if (signal !== undefined) exitStopped(signal, io);
}

/** What one collection run is and what its caller learns even when it throws (the rollouts file holding evidence). */
interface CollectRun {
  startedAt: Date;
  cwd: string;
  logDir?: string;
  evidenceRollouts?: string;
}

async function collect(
  flags: EvalRunFlags,
  environment: CollectionEnvironment,
  roots: readonly string[],
  signals: { stop: AbortController; abandon: AbortSignal },
  io: CliIo,
  telemetry: GymTelemetry | undefined,
  run: CollectRun,
): Promise<void> {
  const settings = evalRunSettings(flags, environment.config);
  const output = resolve(settings.output ?? defaultOutputPath(chooseAgent(agentUrls(environment.instances), settings.agent, false), run.startedAt));
  const instrument = processTelemetry(telemetry).client;
  // the progress bar: other output (server logs, warnings) erases it rather than running into it
  const status = startStatusLine();
  const result = await withJobSpan(telemetry, (scope) =>
    collectRollouts({
      ...settings,
      environment,
      output,
      input: settings.input === undefined ? undefined : resolve(settings.input),
      resolvePath: (path) => lookupPath(path, roots).found ?? path,
      stopSignal: signals.stop.signal,
      abandonSignal: signals.abandon,
      progress: {
        write: (text) => status.write(text),
        isTty: status.isTty,
        color: process.stderr.isTTY === true && (process.env['NO_COLOR'] ?? '') === '',
        ...(process.stderr.isTTY === true ? { columns: process.stderr.columns } : {}),
      },
      onInfo: (line) => io.err(`gym: ${line}`),
      onWarning: (line) => io.err(`gym: warning: ${line}`),
      // every /run call of the run starts its own trace, linked to gym.job
      ...(instrument === undefined ? {} : { instrument: withDefaultScope(instrument, scope) }),
    }),
  ).finally(() => status.release());
  // the summary goes to whatever still works: stdout, or stderr once the reader of stdout went away
  // (`| head -1`, a `tee` ended by the same Ctrl-C); a write to a closed pipe fails a tick later
  const summary = formatSummary(result, { cwd: run.cwd, ...(run.logDir === undefined ? {} : { logDir: run.logDir }) });
  if (!isBroken(process.stdout)) {
    for (const line of summary) io.out(line);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (isBroken(process.stdout)) for (const line of summary) io.err(line);
  if (result.evidence !== undefined) run.evidenceRollouts = output;
  // with rollout evidence on, the rows carry what the health check reads
  if (result.evidence !== undefined && flags.healthCheck !== false && !result.interrupted && result.succeeded + result.plan.succeeded > 0) {
    printHealthCheck(output, checkIds(flags.healthCheckIgnore), io);
  }
  if (result.incomplete > 0) throw new ExitError(1);
}

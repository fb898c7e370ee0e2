/**
 * Telemetry of a CLI process that runs an environment (`gym env start`, `gym eval run`): checks
 * the settings (a bad value stops the command before anything starts), writes them into the
 * environment its children inherit (set-if-absent), and sets up its own telemetry, whose console
 * output goes to `<log dir>/<role>.log` rather than the user's terminal.
 * @module
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import type { WriteStream } from 'node:fs';
import { join } from 'node:path';
import { applyTelemetryEnv, validateTelemetrySettings } from './env.js';
import { initTelemetry } from '@gym/server/internal/telemetry/init.js';
import type { GymTelemetry } from '@gym/server/internal/telemetry/state.js';

/** A CLI process's telemetry. */
export interface CliTelemetry {
  /** The environment for child processes, telemetry settings applied. */
  env: NodeJS.ProcessEnv;
  telemetry: GymTelemetry | undefined;
  runId: string | undefined;
  /** Flushes and shuts telemetry down, then closes the log file. */
  close(): Promise<void>;
}

/** Server name and type of a gym CLI process: `service.name` is `<service_name>/orchestrator`. */
export const CLI_SERVICE = 'orchestrator';

/** Options of {@link setUpCliTelemetry}. */
export interface CliTelemetryOptions {
  /** The config's `telemetry:` block. */
  block: Record<string, unknown> | undefined;
  /** Where `<role>.log` goes; asked only when console telemetry is on, and created then. */
  logDir: string | (() => string);
  role: 'orchestrator' | 'collector';
  /** Base environment; default a copy of `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** Validates, applies and initialises. Throws `GymUserError` (GYM_TELEMETRY_INVALID) on bad settings. */
export async function setUpCliTelemetry(options: CliTelemetryOptions): Promise<CliTelemetry> {
  const env = { ...(options.env ?? process.env) };
  // resolved once here; the servers get the same values through `env`
  const settings = applyTelemetryEnv(validateTelemetrySettings(options.block, env), options.block, env);
  const runId = settings.enabled ? settings.runId : undefined;
  let output: WriteStream | undefined;
  if (settings.enabled && settings.exporter === 'console') {
    const logDir = typeof options.logDir === 'string' ? options.logDir : options.logDir();
    mkdirSync(logDir, { recursive: true, mode: 0o700 });
    output = createWriteStream(join(logDir, `${options.role}.log`), { flags: 'a', mode: 0o600 });
    output.on('error', () => undefined);
  }
  // one identity for every gym CLI process, as the original's (`nemo-gym/orchestrator`), so
  // dashboards that select its gym.job and startup metrics by service read ours; the role names
  // only the log file
  const telemetry = await initTelemetry({ settings, serverName: CLI_SERVICE, serverType: CLI_SERVICE, env, ...(output === undefined ? {} : { output }) });
  // the servers anchor their span clocks where this process does: spans of the host nest exactly
  if (telemetry !== undefined) env[telemetry.lens.CLOCK_OFFSET_ENV] ??= String(telemetry.lens.clockOffsetNs());
  let closing: Promise<void> | undefined;
  return {
    env,
    telemetry,
    runId,
    close: () =>
      (closing ??= (async () => {
        await telemetry?.shutdown();
        if (output !== undefined) await new Promise<void>((resolve) => output.end(resolve));
      })()),
  };
}

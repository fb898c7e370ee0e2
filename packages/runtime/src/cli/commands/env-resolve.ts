/**
 * `gym env resolve`: print the merged config with secrets redacted. `gym env validate`: check a
 * config offline (no ports bound, no processes) — files, references, entrypoints and each server's
 * own settings as its entrypoint declares them — and report what would start.
 * @module
 */
import { relative } from 'node:path';
import { dumpConfigYaml } from '@gym/server/internal/config/dump.js';
import { ConfigInvalidError } from '@gym/server/internal/config/errors.js';
import { loadConfig } from '@gym/server/internal/config/load.js';
import { redactSecrets } from '@gym/server/internal/config/redact.js';
import { searchRoots } from '@gym/server/internal/config/search-roots.js';
import { assertHasServers } from '../../orchestrator/start-environment.js';
import { pythonCommand } from '../../orchestrator/python-interpreter.js';
import { locateServer } from '../../orchestrator/spawn-server.js';
import { argvSecretWarnings, toLoadConfigOptions } from '../config-options.js';
import { checkDeclaredSettings } from '../declared-settings.js';
import type { ConfigFlags } from '../config-options.js';
import type { CliIo } from '../io.js';

/** Runs `gym env resolve`. */
export async function envResolve(flags: ConfigFlags, overrides: string[], io: CliIo): Promise<void> {
  const config = await loadConfig({ ...toLoadConfigOptions(flags, overrides), probePorts: false });
  // a key on the command line is as visible here as with `env start`
  for (const warning of [...argvSecretWarnings(flags, overrides), ...config.warnings]) io.err(`warning: ${warning}`);
  io.out(dumpConfigYaml(redactSecrets(config.raw)).trimEnd());
}

/** How `gym env validate` names the interpreter that would run a Python server. */
const PYTHON_VIA = { venv: '.venv/bin/python', uv: 'uv run', python3: 'python3 from PATH' } as const;

/** Runs `gym env validate`: every error the config has is thrown as a `GymUserError`. */
export async function envValidate(flags: ConfigFlags, overrides: string[], io: CliIo): Promise<void> {
  const options = { ...toLoadConfigOptions(flags, overrides), probePorts: false };
  const config = await loadConfig(options);
  const roots = searchRoots(options.rootDir, options.selectors?.searchDirs, process.env);
  for (const warning of [...argvSecretWarnings(flags, overrides), ...config.warnings]) io.err(`warning: ${warning}`);
  // a config that starts nothing is not one `gym env start` can use
  assertHasServers(config);
  const located = config.servers.map((instance) => ({ instance, ...locateServer(instance, roots) }));
  const issues = await checkDeclaredSettings(located);
  if (issues.length > 0) {
    throw new ConfigInvalidError(`${issues.length} server setting(s) do not fit what the server declares:\n${issues.map((i) => `  - ${i.path}: ${i.message}`).join('\n')}`);
  }
  for (const { instance, dir, entrypoint } of located) {
    // a Python server needs an interpreter too: the one that would run it, or GYM_PYTHON_NOT_FOUND
    const python = entrypoint.endsWith('.py') ? `  (python: ${PYTHON_VIA[pythonCommand(instance.instanceName, dir, entrypoint, process.env).via]})` : '';
    io.out(`ok  ${instance.instanceName.padEnd(32)} ${instance.serverType}/${instance.implementation}  ${relative(options.rootDir, entrypoint)}${python}`);
  }
  io.out(`config is valid: ${config.servers.length} servers from ${config.sources.length} files`);
}

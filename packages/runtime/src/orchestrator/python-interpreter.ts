/**
 * Which interpreter runs a Python server (an `entrypoint` ending in `.py`), in the order the
 * original's users expect: the server's own `.venv` (prepared beforehand, as the original's
 * `skip_venv_if_present` reuses it), else `uv run` when `uv` is on PATH (uv prepares the
 * environment from the server's `pyproject.toml` or `requirements.txt`, as the original's start does
 * with uv), else `python3` from PATH. None of them: a clear error saying how to prepare one.
 * @module
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join, relative } from 'node:path';
import { GymUserError } from '@gym/server/internal/errors.js';

/** How a Python server's process is started. */
export interface PythonCommand {
  /** The executable (an absolute path). */
  command: string;
  args: string[];
  /** Which rule chose it, for the start-up line and the docs. */
  via: 'venv' | 'uv' | 'python3';
}

/** The first executable `name` on `path` (a PATH value), or `undefined`. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** `uv run` flags that make uv prepare what the server directory declares. */
function uvProjectFlags(dir: string): string[] {
  // a pyproject.toml is a project uv syncs into <dir>/.venv; requirements.txt (the original's
  // other form) is installed into uv's cached environment for the run; neither: run as is
  if (existsSync(join(dir, 'pyproject.toml'))) return ['--project', dir];
  if (existsSync(join(dir, 'requirements.txt'))) return ['--no-project', '--with-requirements', join(dir, 'requirements.txt')];
  return ['--no-project'];
}

/**
 * The command that runs `entrypoint` (a file of `dir`) for server instance `name`.
 * @throws {GymUserError} `GYM_PYTHON_NOT_FOUND` when there is no `.venv`, no `uv` and no `python3`.
 */
export function pythonCommand(name: string, dir: string, entrypoint: string, env: NodeJS.ProcessEnv): PythonCommand {
  // as the original runs it: `python <entrypoint>` from the server directory (`src/app.py` stays so)
  const file = relative(dir, entrypoint);
  const venvPython = join(dir, '.venv', 'bin', 'python');
  if (existsSync(venvPython)) return { command: venvPython, args: [file], via: 'venv' };
  const uv = findOnPath('uv', env['PATH']);
  if (uv !== undefined) return { command: uv, args: ['run', ...uvProjectFlags(dir), 'python', file], via: 'uv' };
  const python3 = findOnPath('python3', env['PATH']);
  if (python3 !== undefined) return { command: python3, args: [file], via: 'python3' };
  const requirements = existsSync(join(dir, 'pyproject.toml')) ? ' && .venv/bin/pip install -e .' : existsSync(join(dir, 'requirements.txt')) ? ' && .venv/bin/pip install -r requirements.txt' : '';
  throw new GymUserError(
    'GYM_PYTHON_NOT_FOUND',
    `Server '${name}' is a Python server (${file}) but no Python interpreter was found: no ${venvPython}, and neither 'uv' nor 'python3' on PATH. ` +
      `Prepare its environment: 'cd ${dir} && python3 -m venv .venv${requirements}' (gym then uses .venv/bin/python), or install uv (https://docs.astral.sh/uv/) and let gym run it with 'uv run'.`,
  );
}

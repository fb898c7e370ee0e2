// Runs `support/cli-main.ts` (a `gym` program with only the trace commands) as a child process, and
// the two-rollout run the CLI tests read.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rolloutSpans, writeRunLogs } from './fixtures.js';

const MAIN = fileURLToPath(new URL('./cli-main.ts', import.meta.url));

/** `gym <args>` with `env` added to this process's environment; its exit code and output. */
export function traceCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): { code: number | null; out: string; err: string } {
  // spawnSync returns only after the child exits; the timeout kills it if it hangs.
  const r = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN, ...args], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The logs of two rollouts, `0-0` and `1-0` two seconds later. */
export function writeTwoRollouts(): ReturnType<typeof writeRunLogs> {
  return writeRunLogs([...rolloutSpans({ rolloutId: '0-0' }), ...rolloutSpans({ rolloutId: '1-0', atMs: 2000 })]);
}

/**
 * Runs `gym eval run` to completion and reads JSONL rows back — for the end-to-end tests that check
 * how each rollout row of a resources server was graded against the example row it came from.
 * @module
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, REPO_ROOT, runGym } from '../../packages/runtime/test/support/gym-process.js';

/** A JSONL row as tests read it: any field, any shape (a wrong guess fails the test's assertion). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as in test files, where the rule is off
export type JsonRow = Record<string, any>;

/** The objects of a JSONL file, one a line. */
export function readJsonl(path: string): JsonRow[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as JsonRow);
}

/** The rows of `resources_servers/<server>/data/example.jsonl`. */
export function exampleRows(server: string): JsonRow[] {
  return readJsonl(join(REPO_ROOT, 'resources_servers', server, 'data', 'example.jsonl'));
}

/** Runs `gym eval run <args>` with its logs in `logDir` and the head server on a free port; asserts that it exits 0. */
export async function evalRun(args: readonly string[], logDir: string): Promise<void> {
  const { code, stderr } = await runGym(['eval', 'run', ...args, '--log-dir', logDir, `++head_server.port=${await freePort()}`]);
  assert.equal(code, 0, stderr);
}

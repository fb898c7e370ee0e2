/**
 * Checks that one of the original's config files, written out as it is (entrypoint `app.py`,
 * datasets from a registry), passes `gym env validate` unchanged — for each environment's test.
 * @module
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGym } from '../../packages/runtime/test/support/gym-process.js';

/** Writes `lines` to `<temp>/<fileName>` and asserts that `gym env validate --config` accepts it with `others` (default: the simulated model). */
export async function assertOriginalConfigValidates(fileName: string, lines: readonly string[], others: readonly string[] = ['--model-type', 'simulated_model']): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gym-original-config-'));
  try {
    const config = join(dir, fileName);
    writeFileSync(config, lines.join('\n'));
    const { code, stdout, stderr } = await runGym(['env', 'validate', '--config', config, ...others]);
    assert.equal(code, 0, stdout + stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

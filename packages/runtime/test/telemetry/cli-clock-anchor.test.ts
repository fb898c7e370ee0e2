import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI_TELEMETRY = new URL('../../src/telemetry/cli-telemetry.ts', import.meta.url).href;

/** The environment a fresh CLI process would give its servers, for a `telemetry:` block and a base environment. */
function serverEnv(block: unknown, env: Record<string, string>): Record<string, string> {
  const logDir = mkdtempSync(join(tmpdir(), 'gym-clock-'));
  try {
    const code = `
      const { setUpCliTelemetry } = await import(${JSON.stringify(CLI_TELEMETRY)});
      const cli = await setUpCliTelemetry({ block: ${JSON.stringify(block)}, logDir: ${JSON.stringify(logDir)}, role: 'collector', env: ${JSON.stringify(env)} });
      await cli.close();
      console.log(JSON.stringify(cli.env));
    `;
    const child = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '-e', code], { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } });
    assert.equal(child.status, 0, child.stderr);
    return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Record<string, string>;
  } finally {
    rmSync(logDir, { recursive: true, force: true });
  }
}

describe("the CLI's environment for its servers", () => {
  it('carries its span clock anchor when telemetry is on', () => {
    assert.match(serverEnv({ enabled: true, exporter: 'console' }, {})['NEMO_LENS_CLOCK_OFFSET_NS'] ?? '', /^-?\d+$/);
  });

  it("keeps a launcher's anchor: one per host and run", () => {
    assert.equal(serverEnv({ enabled: true, exporter: 'console' }, { NEMO_LENS_CLOCK_OFFSET_NS: '42' })['NEMO_LENS_CLOCK_OFFSET_NS'], '42');
  });

  it('stays untouched when telemetry is off', () => {
    assert.deepEqual(serverEnv(undefined, { A: '1' }), { A: '1' });
  });
});

// `gym eval run` checks its input before any server starts, as the original prepares its datasets
// first: a split no dataset has, an input file that is missing, or --split with --input end the
// run at once, with no server started (no "servers stopped" line, no log directory).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGym } from '../support/gym-process.js';

const SERVERS = ['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model'];

describe('gym eval run checks its input before starting servers', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gym-preflight-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  const cases: Array<{ name: string; args: string[]; error: RegExp }> = [
    { name: '--split train with only example datasets', args: ['--split', 'train'], error: /No agent has a dataset of type "train"; the datasets are: .*\(example\)/ },
    { name: 'a missing --input file', args: ['--input', join(dir, 'missing.jsonl')], error: /Cannot read the input file '.*missing\.jsonl'/ },
    { name: '--split with --input', args: ['--split', 'example', '--input', join(dir, 'rows.jsonl')], error: /--split example and --input both choose the input rows/ },
  ];
  for (const c of cases) {
    it(`${c.name}: fails with the reason and starts no server`, async () => {
      const logDir = join(dir, `logs-${cases.indexOf(c)}`);
      const { code, stderr } = await runGym(['eval', 'run', ...SERVERS, ...c.args, '--output', join(dir, 'out.jsonl'), '--log-dir', logDir], { cwd: dir });
      assert.notEqual(code, 0);
      assert.match(stderr, c.error);
      assert.doesNotMatch(stderr, /servers stopped|starting/i);
      assert.equal(existsSync(logDir), false);
    });
  }
});

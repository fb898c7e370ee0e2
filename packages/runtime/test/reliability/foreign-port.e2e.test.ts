// Readiness means the server gym started is the one answering: with a configured port already
// taken by another program that answers HTTP, gym reports the port and never uses that program.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXAMPLE_EVAL_RUN, freePort, runGym } from '../support/gym-process.js';
import { startImpostorServer } from '../support/impostor-server.js';

describe('a configured port taken by another program', () => {
  it('is reported as GYM_SERVER_PORT_IN_USE naming the port; the other program gets no rollout', async () => {
    const foreign = await startImpostorServer();
    const { port, seen } = foreign;
    const dir = mkdtempSync(join(tmpdir(), 'gym-foreign-'));
    try {
      const run = await runGym(
        [
          ...EXAMPLE_EVAL_RUN,
          '--limit',
          '1',
          '-o',
          join(dir, 'out.jsonl'),
          '--log-dir',
          join(dir, 'logs'),
          `++example_single_tool_call.resources_servers.example_single_tool_call.port=${port}`,
          `++head_server.port=${await freePort()}`,
        ],
        { cwd: dir },
      );
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, new RegExp(`Server 'example_single_tool_call' could not listen on 127\\.0\\.0\\.1:${port}: the port is in use by another program \\(EADDRINUSE\\)`));
      assert.doesNotMatch(run.stderr, /all 3 servers ready/);
      assert.deepEqual(
        seen.filter((r) => r !== 'GET /'),
        [],
        'only readiness probes reached the other program',
      );
      assert.ok(!readdirSync(dir).includes('out.jsonl'), 'no rollout was collected');
    } finally {
      await foreign.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Readiness means the server gym started is the one answering: with a configured port already
// taken by another program that answers HTTP, gym reports the port and never uses that program.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EXAMPLE_EVAL_RUN } from '../support/gym-process.js';
import { runOnTakenPort } from '../support/impostor-server.js';

describe('a configured port taken by another program', () => {
  it('is reported as GYM_SERVER_PORT_IN_USE naming the port; the other program gets no rollout', async () => {
    const stderr = await runOnTakenPort([...EXAMPLE_EVAL_RUN, '--limit', '1'], 'example_single_tool_call');
    assert.match(stderr, /the port is in use by another program \(EADDRINUSE\)/);
    assert.doesNotMatch(stderr, /all 3 servers ready/);
  });
});

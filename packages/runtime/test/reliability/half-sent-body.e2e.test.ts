// Shutdown is bounded and the final flush always runs: a client that sent half a body does not
// hold a server past the stop grace (which would SIGKILL it before its telemetry flush).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { once } from 'node:events';
import { join } from 'node:path';
import { startGymEnv } from '../support/gym-process.js';

const AGENT = 'example_single_tool_call_simple_agent';

/** Resolves once `socket` has received a `100 Continue` answer (the socket stays open). */
function interimAnswer(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    let received = '';
    const onData = (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (!received.includes('100 Continue\r\n\r\n')) return;
      socket.off('data', onData).off('close', onClose);
      resolve();
    };
    const onClose = () => reject(new Error(`the connection closed before a 100 Continue answer: ${JSON.stringify(received)}`));
    socket.on('data', onData).once('close', onClose);
  });
}

describe('gym env start with a client that sent half a body', () => {
  it('stops on SIGTERM with every server stopping by itself and flushing, none killed', async () => {
    const env = await startGymEnv(['--resources-server', 'example_single_tool_call', '--model-type', 'simulated_model']);
    const socket = connect(Number(new URL(env.url(AGENT)).port), '127.0.0.1');
    socket.on('error', () => undefined);
    const cut = once(socket, 'close');
    try {
      await once(socket, 'connect');
      // `Expect: 100-continue`: the agent's answer `100 Continue` says it has the request (its
      // headers) and waits for the body; half of it follows, then gym is told to stop
      socket.write('POST /run HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\nExpect: 100-continue\r\n\r\n');
      await interimAnswer(socket);
      socket.write('{"responses_create_params":');
      assert.equal(await env.stop(), 143, env.output());
      assert.doesNotMatch(env.output(), /did not stop within/);
      for (const s of env.servers) {
        assert.match(readFileSync(join(env.logDir, `${s.process_name}.log`), 'utf8'), /stopped: requests drained/, `${s.process_name} drained and stopped by itself`);
      }
      await cut; // the server cut the half-sent request
    } finally {
      socket.destroy();
      await env.dispose();
    }
  });
});

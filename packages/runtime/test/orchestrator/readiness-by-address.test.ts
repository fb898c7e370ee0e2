// A Python server binds 127.0.0.2:P while another
// program holds 127.0.0.1:P, where gym expects the server. The other program answers GET / on
// 127.0.0.1:P; gym must not take it for the server, although a process of the tree it started
// listens on port P. Real processes and sockets.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createHttpClient } from '../../../server/src/http/client.js';
import { procAvailable } from '../../src/orchestrator/proc-memory.js';
import type { SpawnedServer } from '../../src/orchestrator/spawn-server.js';
import { waitForServers } from '../../src/orchestrator/wait-ready.js';
import { startImpostorServer } from '../support/impostor-server.js';
import type { ImpostorServer } from '../support/impostor-server.js';

/** A stand-in for a started Python server: `child` listens on `host`:`port`; gym expects it on 127.0.0.1:`port`. */
function pythonServer(child: ChildProcess, port: number): SpawnedServer {
  return {
    display: {
      process_name: 'py',
      server_type: 'resources_servers',
      name: 'py',
      dir_path: '.',
      entrypoint: 'app.py',
      host: '127.0.0.1',
      port,
      url: `http://127.0.0.1:${port}`,
      pid: child.pid ?? null,
      config_path: 'py',
      start_time: 0,
    },
    child,
    tee: { tail: () => [], close: () => Promise.resolve(), abandon: () => Promise.resolve() },
    exited: new Promise(() => undefined),
    numWorkers: 1,
    workersListening: () => true,
    language: 'python',
    token: 'unused',
    pythonPid: () => undefined,
    losses: [],
  };
}

describe('readiness of a Python server', { skip: !procAvailable() && 'needs Linux /proc' }, () => {
  let impostor: ImpostorServer;
  let elsewhere: ChildProcess;
  const http = createHttpClient({ retry: { maxAttempts: 1 } });
  before(async () => {
    impostor = await startImpostorServer();
    elsewhere = spawn(process.execPath, ['-e', `require('node:http').createServer((q, s) => s.end('{"status":"ok"}')).listen(${impostor.port}, '127.0.0.2', () => console.log('up'))`], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await once(elsewhere.stdout!, 'data');
  });
  after(async () => {
    elsewhere.kill('SIGKILL');
    await impostor.close();
    await http.close();
  });

  it('is not ready while another program answers its configured address, even though its tree listens on the same port elsewhere', async () => {
    await assert.rejects(waitForServers(http, [pythonServer(elsewhere, impostor.port)], 1500), {
      code: 'GYM_SERVER_START_TIMEOUT',
      message: new RegExp(`Another program answers on 127\\.0\\.0\\.1:${impostor.port}; it is not the server gym started`),
    });
    assert.ok(impostor.seen.length > 0, 'the other program was asked');
    assert.ok(
      impostor.seen.every((r) => r === 'GET /'),
      'only readiness probes',
    );
  });
});

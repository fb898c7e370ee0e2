/**
 * Readiness: every server answers `GET /`, and every upstream model endpoint answers at all.
 * @module
 */
import type { ConfigMap } from '@gym/server/internal/config/types.js';
import { GymUpstreamError, GymUserError } from '@gym/server/internal/errors.js';
import { gymErrorClass, gymMessage } from '@gym/server/internal/error-class.js';
import type { HttpClient } from '@gym/server/internal/http/types.js';
import { SERVER_TOKEN_HEADER } from '@gym/server/internal/server-process/server-identity.js';
import { portOwner } from './port-owner.js';
import type { SpawnedServer } from './spawn-server.js';

const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 1000;

/** Waits `ms`, or less when `signal` aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Thrown when the wait was stopped (Ctrl-C) before the servers or endpoints were ready. */
export class StartInterruptedError extends gymErrorClass('GYM_START_INTERRUPTED') {
  constructor(what: string) {
    super(gymMessage('GYM_START_INTERRUPTED', what));
  }
}

/** Why `url` gave no HTTP answer, or `undefined` when anything answered (any status counts, as in the original). */
async function noAnswer(http: HttpClient, url: string): Promise<string | undefined> {
  try {
    await http.get(url, { raw: true, retry: false, timeoutMs: 5000 });
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Who answered `GET /` of a server: the process gym started (it echoed its token), another program, or nobody. */
type Answer = 'ours' | 'foreign' | 'none';

async function whoAnswers(http: HttpClient, server: SpawnedServer): Promise<Answer> {
  try {
    const reply = await http.get(`${server.display.url}/`, { raw: true, retry: false, timeoutMs: 5000 });
    if (server.language === 'python') return await pythonAnswer(server);
    return reply.headers[SERVER_TOKEN_HEADER] === server.token ? 'ours' : 'foreign';
  } catch {
    return 'none';
  }
}

/**
 * A Python server cannot echo the start token (the original's servers know nothing of it): its
 * answer counts when the process tree gym started for it holds the socket that takes connections
 * to its configured address and port. Without `/proc` to tell (not Linux), any answer counts, as
 * in the original.
 */
async function pythonAnswer(server: SpawnedServer): Promise<Answer> {
  const root = server.child.pid;
  if (root === undefined) return 'foreign';
  return (await portOwner(root, server.display.host, server.display.port)) === 'other' ? 'foreign' : 'ours';
}

/**
 * Polls `GET /` of each server until the server gym started answers (it proves it by echoing its
 * start token; a Python server, by holding the listening socket) and, with `num_workers > 1`, every worker listens. A reply without the token is
 * another program on the port: never taken for the server. Rejects as soon as a server process
 * exits, with the tail of its output, when `timeoutMs` passes, or when `signal` aborts (a stop
 * request: {@link StartInterruptedError}).
 */
export async function waitForServers(
  http: HttpClient,
  servers: readonly SpawnedServer[],
  timeoutMs: number,
  onReady: (server: SpawnedServer) => void = () => undefined,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    servers.map(async (server) => {
      let died: number | string | undefined;
      let foreign = false;
      void server.exited.then((code) => (died = code));
      for (let delay = FIRST_POLL_MS; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
        if (signal?.aborted === true) throw new StartInterruptedError(`server '${server.display.process_name}' to answer`);
        if (died !== undefined) throw exitedError(server, died, foreign);
        // a server with num_workers > 1 is ready once every worker listens, not just the first
        if (server.workersListening()) {
          const answer = await whoAnswers(http, server);
          if (answer === 'ours') return onReady(server);
          foreign ||= answer === 'foreign';
        }
        if (Date.now() > deadline) {
          const other = foreign ? ` Another program answers on ${server.display.host}:${server.display.port}; it is not the server gym started.` : '';
          throw new GymUserError(
            'GYM_SERVER_START_TIMEOUT',
            `Server '${server.display.process_name}' did not answer ${server.display.url}/ within ${Math.round(timeoutMs / 1000)} s.${other} Its last output:\n${server.tee.tail().join('\n')}`,
          );
        }
        await sleep(delay, signal);
      }
    }),
  );
}

/** The error for a server process that ended before it was ready; a taken port gets its own code. */
function exitedError(server: SpawnedServer, code: number | string, foreignAnswered: boolean): GymUserError {
  const tail = server.tee.tail();
  const { process_name: name, host, port } = server.display;
  // Python says "[Errno 98] Address already in use" where Node says EADDRINUSE
  if (tail.some((line) => line.includes('GYM_SERVER_PORT_IN_USE')) || (foreignAnswered && tail.some((line) => line.includes('EADDRINUSE') || line.includes('Address already in use')))) {
    const who = foreignAnswered ? ' Another program answers HTTP there; gym did not use it.' : '';
    return new GymUserError(
      'GYM_SERVER_PORT_IN_USE',
      `Server '${name}' could not listen on ${host}:${port}: the port is in use by another program (EADDRINUSE).${who} Free the port, or set another port for '${name}' (or none, to get a free one).`,
    );
  }
  return new GymUserError('GYM_SERVER_EXITED', `Server '${name}' exited (${code}) before it was ready.${missingPythonPackage(server, tail)} Its last output:\n${tail.join('\n')}`);
}

/** For a Python server that died on an import: where its packages should come from. */
function missingPythonPackage(server: SpawnedServer, tail: readonly string[]): string {
  if (server.language !== 'python' || !tail.some((line) => line.includes('ModuleNotFoundError'))) return '';
  const dir = server.display.dir_path;
  return ` Its Python environment lacks a package it imports: install its requirements into ${dir}/.venv ('cd ${dir} && python3 -m venv .venv && .venv/bin/pip install -r requirements.txt', or 'pip install -e .' for a pyproject.toml), or put uv on PATH to have gym run it with 'uv run'.`;
}

/** Every string under a `responses_api_models` block whose key ends in `base_url`. */
export function modelEndpoints(tree: ConfigMap): string[] {
  const found = new Set<string>();
  const walk = (node: unknown, inModels: boolean): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const nowInModels = inModels || key === 'responses_api_models';
      if (nowInModels && key.endsWith('base_url') && typeof value === 'string' && /^https?:\/\//.test(value)) found.add(value);
      else walk(value, nowInModels);
    }
  };
  walk(tree, false);
  return [...found];
}

/** Options of {@link waitForModelEndpoints}. */
export interface ModelWaitOptions {
  /** Total wait; 0 skips it (`model_endpoint_readiness_timeout_seconds`). */
  timeoutMs: number;
  /** Stops the wait (Ctrl-C) with {@link StartInterruptedError}. */
  signal?: AbortSignal;
  /** Told what is waited for at the start and every `reportEveryMs`, with the seconds left. */
  onWaiting?: (line: string) => void;
  /** Default 10 s. */
  reportEveryMs?: number;
}

/** What to paste to skip the wait: a plain override, since the key has a built-in default. */
export const SKIP_MODEL_WAIT = 'model_endpoint_readiness_timeout_seconds=0';

/**
 * Waits until each upstream model endpoint answers: `<url>/models` for URLs ending in `/v1`, the
 * URL itself otherwise. Any HTTP reply counts (401 and 404 too). Says what it waits for and counts
 * down; Ctrl-C (`signal`) stops it.
 * @throws {GymUpstreamError} `GYM_MODEL_ENDPOINT_UNREACHABLE` when the time is up, with the last failure.
 */
export async function waitForModelEndpoints(http: HttpClient, urls: readonly string[], options: ModelWaitOptions): Promise<void> {
  const { timeoutMs, signal } = options;
  if (timeoutMs <= 0 || urls.length === 0) return;
  const deadline = Date.now() + timeoutMs;
  const waiting = new Set(urls);
  const secondsLeft = () => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const report = () => options.onWaiting?.(`waiting for model endpoint ${[...waiting].join(', ')}: ${secondsLeft()} s left (Ctrl-C stops; ${SKIP_MODEL_WAIT} skips the wait)`);
  report();
  const ticker = setInterval(report, options.reportEveryMs ?? 10_000);
  try {
    await Promise.all(
      urls.map(async (url) => {
        const probe = /\/v1\/?$/.test(url) ? `${url.replace(/\/$/, '')}/models` : url;
        for (let delay = FIRST_POLL_MS * 4; ; delay = Math.min(delay * 2, 3000)) {
          if (signal?.aborted === true) throw new StartInterruptedError(`model endpoint ${url}`);
          const failure = await noAnswer(http, probe);
          if (failure === undefined) return void waiting.delete(url);
          if (Date.now() > deadline) {
            throw new GymUpstreamError(
              'GYM_MODEL_ENDPOINT_UNREACHABLE',
              `Model endpoint ${url} did not answer within ${Math.round(timeoutMs / 1000)} s (GET ${probe}: ${failure}). ` +
                `Check that the model server is up and the URL (--model-url, policy_base_url) is right; or add ${SKIP_MODEL_WAIT} to the command to start without waiting.`,
            );
          }
          await sleep(Math.min(delay, Math.max(0, deadline - Date.now()) + 1), signal);
        }
      }),
    );
  } finally {
    clearInterval(ticker);
  }
}

/**
 * Readiness: every server gym started answers `GET /` (and proves it is that server), and every
 * upstream model endpoint answers at all.
 * @module
 */
import type { ConfigMap } from '../config/types.js';
import { GymUpstreamError, GymUserError } from '../errors.js';
import type { HttpClient } from '../http/types.js';
import { SERVER_TOKEN_HEADER } from '../process/server-identity.js';
import type { SpawnedServer } from './spawn-server.js';

const FIRST_POLL_MS = 50;
const MAX_POLL_MS = 1000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** True when anything answers HTTP at `url` (any status counts, as in the original). */
async function answers(http: HttpClient, url: string): Promise<boolean> {
  try {
    await http.get(url, { raw: true, retry: false, timeoutMs: 5000 });
    return true;
  } catch {
    return false;
  }
}

/** Who answered `GET /` of a server: the process gym started (it echoed its token), another program, or nobody. */
type Answer = 'ours' | 'foreign' | 'none';

async function whoAnswers(http: HttpClient, server: SpawnedServer): Promise<Answer> {
  try {
    const reply = await http.get(`${server.display.url}/`, { raw: true, retry: false, timeoutMs: 5000 });
    return reply.headers[SERVER_TOKEN_HEADER] === server.token ? 'ours' : 'foreign';
  } catch {
    return 'none';
  }
}

/**
 * Polls `GET /` of each server until the server gym started answers (it proves it by echoing its
 * start token) and, with `num_workers > 1`, every worker listens. A reply without the token is
 * another program on the port: never taken for the server. Rejects as soon as a server process
 * exits, with the tail of its output, when `timeoutMs` passes, or when `stopSignal` aborts.
 */
export async function waitForServers(
  http: HttpClient,
  servers: readonly SpawnedServer[],
  timeoutMs: number,
  onReady: (server: SpawnedServer) => void = () => undefined,
  stopSignal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    servers.map(async (server) => {
      let died: number | string | undefined;
      let foreign = false;
      void server.exited.then((code) => (died = code));
      for (let delay = FIRST_POLL_MS; ; delay = Math.min(delay * 2, MAX_POLL_MS)) {
        stopSignal?.throwIfAborted();
        if (died !== undefined) throw exitedError(server, died, foreign);
        // a server with num_workers > 1 is ready once every worker listens, not just the first
        if (server.workersListening()) {
          const answer = await whoAnswers(http, server);
          if (answer === 'ours') return onReady(server);
          foreign ||= answer === 'foreign';
        }
        if (Date.now() > deadline) {
          const other = foreign ? ` Another program answers on ${server.display.host}:${server.display.port}; it is not the server gym started.` : '';
          throw new GymUserError('GYM_SERVER_START_TIMEOUT', `Server '${server.display.process_name}' did not answer ${server.display.url}/ within ${Math.round(timeoutMs / 1000)} s.${other} Its last output:\n${server.tee.tail().join('\n')}`);
        }
        await sleep(delay);
      }
    }),
  );
}

/** The error for a server process that ended before it was ready; a taken port gets its own code. */
function exitedError(server: SpawnedServer, code: number | string, foreignAnswered: boolean): GymUserError {
  const tail = server.tee.tail();
  const { process_name: name, host, port } = server.display;
  if (tail.some((line) => line.includes('GYM_SERVER_PORT_IN_USE')) || (foreignAnswered && tail.some((line) => line.includes('EADDRINUSE')))) {
    const who = foreignAnswered ? ' Another program answers HTTP there; gym did not use it.' : '';
    return new GymUserError('GYM_SERVER_PORT_IN_USE', `Server '${name}' could not listen on ${host}:${port}: the port is in use by another program (EADDRINUSE).${who} Free the port, or set another port for '${name}' (or none, to get a free one).`);
  }
  return new GymUserError('GYM_SERVER_EXITED', `Server '${name}' exited (${code}) before it was ready. Its last output:\n${tail.join('\n')}`);
}

/** Every string under a `responses_api_models` block whose key ends in `base_url` (reference §1.2 step 10). */
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

/**
 * Waits until each upstream model endpoint answers: `<url>/models` for URLs ending in `/v1`, the
 * URL itself otherwise. Any HTTP reply counts (401 and 404 too). `timeoutMs` 0 skips the wait.
 */
export async function waitForModelEndpoints(http: HttpClient, urls: readonly string[], timeoutMs: number): Promise<void> {
  if (timeoutMs <= 0) return;
  const deadline = Date.now() + timeoutMs;
  await Promise.all(
    urls.map(async (url) => {
      const probe = /\/v1\/?$/.test(url) ? `${url.replace(/\/$/, '')}/models` : url;
      for (let delay = FIRST_POLL_MS * 4; ; delay = Math.min(delay * 2, 3000)) {
        if (await answers(http, probe)) return;
        if (Date.now() > deadline) {
          throw new GymUpstreamError('GYM_MODEL_ENDPOINT_UNREACHABLE', `Model endpoint ${url} did not answer within ${Math.round(timeoutMs / 1000)} s (probed ${probe}). Check the URL, or set model_endpoint_readiness_timeout_seconds=0 to skip the wait.`);
        }
        await sleep(delay);
      }
    }),
  );
}

/**
 * Starting and stopping a server: `listen()` with a raised backlog, and SIGINT/SIGTERM/SIGHUP (or
 * the parent going away) turned into a bounded graceful close (never `process.exit`: the process
 * ends when its handles close).
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { watchParent } from '../server-process/parent-link.js';

/** Default listen backlog: the machine's `somaxconn`, so bursts of 16k connects are queued, not refused. */
export const DEFAULT_LISTEN_BACKLOG = 4096;

/** Options of {@link listen}. */
export interface ListenOptions {
  /** Default `127.0.0.1`: servers are private unless configured. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default {@link DEFAULT_LISTEN_BACKLOG}. */
  backlog?: number;
}

/** Where a server listens. */
export interface ListeningAddress {
  host: string;
  port: number;
  /** `http://<host>:<port>` (IPv6 hosts bracketed). */
  url: string;
}

/** Starts `app` listening; resolves once it accepts connections. */
export async function listen(app: FastifyInstance, options: ListenOptions = {}): Promise<ListeningAddress> {
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0, backlog: options.backlog ?? DEFAULT_LISTEN_BACKLOG });
  const { port } = app.server.address() as AddressInfo;
  return { host, port, url: `http://${host.includes(':') ? `[${host}]` : host}:${port}` };
}

/** How long in-flight requests may take to finish once a server stops, before their sockets are closed (with the telemetry flush, under the orchestrator's 10 s grace). */
export const REQUEST_DRAIN_MS = 4_000;

/** Options of {@link installShutdownHandlers}. */
export interface ShutdownOptions {
  /** Runs after `app.close()`, e.g. `telemetry.shutdown()` and `http.close()`. */
  onShutdown?: () => void | Promise<void>;
  /** Default `['SIGINT', 'SIGTERM', 'SIGHUP']`. */
  signals?: readonly NodeJS.Signals[];
  /** Also stop when the parent process's IPC channel closes (see `server-process/parent-link.ts`). Default true. */
  watchParent?: boolean;
  /** Default {@link REQUEST_DRAIN_MS}. */
  drainMs?: number;
}

/**
 * Closes `app` within a bounded time: new connections are refused and idle keep-alive sockets
 * closed at once (fastify), a request whose body has not fully arrived (a client that sent half a
 * body) is cut at once, and requests still running after `drainMs` have their sockets closed. So a
 * stop never waits on a client, and the telemetry flush that follows always gets its turn.
 */
export async function closeServer(app: FastifyInstance, drainMs: number = REQUEST_DRAIN_MS): Promise<void> {
  const closing = app.close();
  for (const request of openRequests(app)) {
    if (!request.complete) request.socket.destroy();
  }
  const timer = setTimeout(() => app.server.closeAllConnections(), drainMs);
  timer.unref();
  try {
    await closing;
  } finally {
    clearTimeout(timer);
  }
}

const OPEN_REQUESTS = Symbol('gym.openRequests');

/** Requests of `app` that have started and not finished. Tracked from the first call on the app's server. */
function openRequests(app: FastifyInstance): Set<IncomingMessage> {
  const server = app.server as typeof app.server & { [OPEN_REQUESTS]?: Set<IncomingMessage> };
  return server[OPEN_REQUESTS] ?? new Set();
}

/**
 * Starts tracking the open requests of `app`'s server, so {@link closeServer} can cut those whose
 * body never finished arriving. One listener per request start and one per end; no per-request hook.
 */
export function trackOpenRequests(app: FastifyInstance): void {
  const server = app.server as typeof app.server & { [OPEN_REQUESTS]?: Set<IncomingMessage> };
  if (server[OPEN_REQUESTS] !== undefined) return;
  const open = new Set<IncomingMessage>();
  server[OPEN_REQUESTS] = open;
  // one listener function for every response of the server: no closure per request
  function forget(this: ServerResponse): void {
    open.delete(this.req);
  }
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    open.add(request);
    response.on('close', forget);
  });
}

/**
 * On the first of `signals`, or when the parent goes away: {@link closeServer} (in-flight requests
 * finish within the drain time, idle and half-sent connections close), then `onShutdown`. Further
 * signals during shutdown are ignored; once done the listeners are removed. Failures are logged
 * through `app.log`. Returns a function that removes the listeners.
 */
export function installShutdownHandlers(app: FastifyInstance, options: ShutdownOptions = {}): () => void {
  const signals = options.signals ?? ['SIGINT', 'SIGTERM', 'SIGHUP'];
  let shuttingDown = false;
  trackOpenRequests(app);
  let releaseParent: () => void = () => undefined;
  const uninstall = (): void => {
    for (const signal of signals) process.removeListener(signal, onSignal);
    releaseParent();
  };
  const onSignal = (signal: NodeJS.Signals | 'parent gone'): void => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down');
    void (async () => {
      try {
        await closeServer(app, options.drainMs);
        await options.onShutdown?.();
      } catch (err) {
        app.log.error({ err }, 'shutdown failed');
      } finally {
        uninstall();
      }
    })();
  };
  for (const signal of signals) process.on(signal, onSignal);
  if (options.watchParent !== false) releaseParent = watchParent(() => onSignal('parent gone'));
  return uninstall;
}

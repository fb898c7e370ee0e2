/**
 * Starting and stopping a server: `listen()` with a raised backlog, and SIGINT/SIGTERM turned
 * into a graceful `app.close()` (never `process.exit`: the process ends when its handles close).
 * @module
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

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

/** Options of {@link installShutdownHandlers}. */
export interface ShutdownOptions {
  /** Runs after `app.close()`, e.g. `telemetry.shutdown()` and `http.close()`. */
  onShutdown?: () => void | Promise<void>;
  /** Default `['SIGINT', 'SIGTERM']`. */
  signals?: readonly NodeJS.Signals[];
}

/**
 * On the first of `signals`: `await app.close()` (in-flight requests finish, idle sockets close),
 * then `onShutdown`. Further signals during shutdown are ignored; once done the listeners are
 * removed. Failures are logged through `app.log`. Returns a function that removes the listeners.
 */
export function installShutdownHandlers(app: FastifyInstance, options: ShutdownOptions = {}): () => void {
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  let shuttingDown = false;
  const uninstall = (): void => {
    for (const signal of signals) process.removeListener(signal, onSignal);
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down');
    void (async () => {
      try {
        await app.close();
        await options.onShutdown?.();
      } catch (err) {
        app.log.error({ err }, 'shutdown failed');
      } finally {
        uninstall();
      }
    })();
  };
  for (const signal of signals) process.on(signal, onSignal);
  return uninstall;
}

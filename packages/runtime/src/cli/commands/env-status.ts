/**
 * `gym env status`: ask the head server for its server instances and health-check each one.
 * @module
 */
import { ExitError, GymUserError } from '@gym/server/internal/errors.js';
import { createHttpClient } from '@gym/server/internal/http/client.js';
import type { ServerInstanceDisplay } from '../../orchestrator/server-instances.js';
import { outputWidth } from '@gym/trace/cli';
import { findHeadUrl } from '../head-url.js';
import type { CliIo } from '../io.js';
import { serverTableLines } from '../server-table.js';

/** Flags of `gym env status`. */
export interface EnvStatusFlags {
  headUrl?: string;
  json?: boolean;
}

/** One row of the status report. */
export interface ServerStatus extends ServerInstanceDisplay {
  healthy: boolean;
  /** The original's health words: `success`, `connection_error`, `timeout`, `unknown_error`. */
  status: HealthStatus;
  /** Seconds since the server was spawned, as the original's `gym env status` shows. */
  uptime_seconds: number;
}

/** How a server answered its health check, in the original's words. */
export type HealthStatus = 'success' | 'connection_error' | 'timeout' | 'unknown_error';

function healthStatusOf(error: unknown): HealthStatus {
  const code = (error as { code?: unknown }).code;
  if (code === 'GYM_HTTP_TIMEOUT') return 'timeout';
  if (code === 'GYM_HTTP_CONNECTION') return 'connection_error';
  return 'unknown_error';
}

/** Runs `gym env status`; exits 1 when a server is unhealthy. */
export async function envStatus(flags: EnvStatusFlags, io: CliIo, overrides: readonly string[] = []): Promise<void> {
  const head = await findHeadUrl({ overrides, ...(flags.headUrl === undefined ? {} : { flag: flags.headUrl }) });
  const http = createHttpClient({ retry: { maxAttempts: 1 } });
  try {
    let instances: ServerInstanceDisplay[];
    try {
      instances = (await http.get<ServerInstanceDisplay[]>(`${head}/server_instances`, { timeoutMs: 5000 })).body;
    } catch (error) {
      throw new GymUserError(
        'GYM_HEAD_SERVER_UNREACHABLE',
        `No head server answers at ${head} (${(error as Error).message}). Is 'gym env start' running? If it listens elsewhere, pass head_server.port=<port> (or --head-url, or set GYM_HEAD_URL).`,
      );
    }
    const rows: ServerStatus[] = await Promise.all(
      instances.map(async (instance) => {
        const status: HealthStatus = await http.get(`${instance.url}/`, { timeoutMs: 5000, retry: false }).then(() => 'success', healthStatusOf);
        const uptime = Math.max(0, Date.now() / 1000 - instance.start_time);
        return { ...instance, healthy: status === 'success', status, uptime_seconds: Math.round(uptime * 10) / 10 };
      }),
    );
    if (flags.json) io.out(JSON.stringify(rows, null, 2));
    else {
      io.out(`head server ${head}: ${rows.length} servers`);
      const table = rows.map((r) => ({ status: r.healthy ? 'ok  ' : 'DOWN', name: r.process_name, type: r.server_type, url: r.url, tail: `pid ${r.pid ?? '-'}` }));
      for (const line of serverTableLines(table, outputWidth())) io.out(line);
    }
    if (rows.some((r) => !r.healthy)) throw new ExitError(1);
  } finally {
    await http.close();
  }
}

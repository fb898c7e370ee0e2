/**
 * What the orchestrator records of each spawned server, as the head server's `/server_instances`
 * answers it (the original's `ServerInstanceDisplayConfig`).
 * @module
 */
import type { ServerType } from '@gym/server/internal/config/types.js';

/** One worker process of a server instance started with `num_workers > 1`. */
export interface ServerWorkerDisplay {
  /** `0 … num_workers-1`; its telemetry carries `service.instance.id=<process_name>-w<index>`. */
  index: number;
  pid: number;
}

/** One running server instance. Wire field names as the original, plus `workers`. */
export interface ServerInstanceDisplay {
  process_name: string;
  server_type: ServerType;
  name: string;
  dir_path: string;
  entrypoint: string;
  host: string;
  port: number;
  url: string;
  pid: number | null;
  config_path: string;
  start_time: number;
  /**
   * Present only for `num_workers > 1`, once every worker listens: the worker processes serving
   * `url` (`pid` is then their cluster primary, which serves nothing). Not in the original.
   */
  workers?: ServerWorkerDisplay[];
}

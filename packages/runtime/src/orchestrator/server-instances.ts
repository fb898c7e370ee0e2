/**
 * What the orchestrator records of each spawned server, as the head server's `/server_instances`
 * answers it (the original's `ServerInstanceDisplayConfig`).
 * @module
 */
import type { ServerType } from '../config/types.js';

/** One running server instance. Wire field names as the original. */
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
}

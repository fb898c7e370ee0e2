/**
 * The run manifest: a small JSON file gym writes into each run's log directory when the run
 * starts, and `gym trace` reads to tell which run is the newest — by what the run is, not by when
 * its directory was last written to. No telemetry extension, so `gym trace` never reads it as
 * telemetry.
 * @module
 */

/** The manifest's file name in a run's log directory. */
export const RUN_MANIFEST_FILE = '.gym-run';

/** What the manifest holds. */
export interface RunManifest {
  /** When the run started, ISO 8601 (UTC). */
  started_at: string;
}

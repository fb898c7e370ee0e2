/**
 * The two run-wide switches of rollout evidence (top-level config keys, shared by agents, model
 * servers and the collector): `observability_enabled` and `model_call_capture_dir`. Read once per
 * process at start-up; with evidence off nothing else in this folder runs.
 * @module
 */
import { isAbsolute } from 'node:path';
import { GymUserError } from '../errors.js';

/** Resolved evidence settings. `captureDir` is set exactly when `enabled`. */
export type EvidenceSettings = { enabled: false } | { enabled: true; captureDir: string };

/** Evidence off: the default. */
export const EVIDENCE_OFF: EvidenceSettings = Object.freeze({ enabled: false });

/**
 * Reads the switches from a resolved config tree. `observability_enabled` accepts a boolean or the
 * strings `true`/`false` (a `++key=value` override from a shell).
 * @throws {GymUserError} `GYM_EVIDENCE_CAPTURE_DIR` when evidence is on without an absolute capture directory.
 */
export function readEvidenceSettings(tree: Record<string, unknown>): EvidenceSettings {
  const raw = tree['observability_enabled'];
  const enabled = raw === true || raw === 'true';
  if (!enabled) return EVIDENCE_OFF;
  const dir = tree['model_call_capture_dir'];
  if (typeof dir !== 'string' || dir.trim() === '') {
    throw new GymUserError(
      'GYM_EVIDENCE_CAPTURE_DIR',
      'observability_enabled is true but model_call_capture_dir is not set. Add ++model_call_capture_dir=/absolute/shared/dir (one directory per evaluation job).',
    );
  }
  if (!isAbsolute(dir)) {
    throw new GymUserError('GYM_EVIDENCE_CAPTURE_DIR', `model_call_capture_dir must be an absolute path (every server and the collector must see the same directory), got '${dir}'.`);
  }
  return { enabled: true, captureDir: dir };
}

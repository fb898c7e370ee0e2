/**
 * Host and process attributes, and the GPU count.
 * @module
 */
import { execFile } from 'node:child_process';
import { hostname } from 'node:os';
import type { Attributes } from '@opentelemetry/api';
import type { Env } from '../env.js';

/** How long `nvidia-smi` may take before the GPU count is treated as unknown. */
const NVIDIA_SMI_TIMEOUT_MS = 2000;

/** `host.name`, `process.pid`, `process.runtime.name` and `process.runtime.version`. */
export function detectHostProcess(): Attributes {
  return {
    'host.name': hostname(),
    'process.pid': process.pid,
    'process.runtime.name': 'nodejs',
    'process.runtime.version': process.versions.node,
  };
}

/**
 * `host.gpu.count`: from `CUDA_VISIBLE_DEVICES` when set (0 when blank, else the number of
 * comma-separated entries); otherwise from `nvidia-smi` if it is on `PATH` (bounded by a 2 s
 * timeout); omitted when unknown. Never rejects.
 */
export async function detectGpuCount(env: Env): Promise<Attributes> {
  const visible = env['CUDA_VISIBLE_DEVICES'];
  if (visible !== undefined) {
    const entries = visible.split(',').filter((entry) => entry.trim() !== '');
    return { 'host.gpu.count': entries.length };
  }
  const path = env['PATH'];
  if (!path) return {};
  return new Promise((resolve) => {
    // looked up on `path` by the spawn itself: not found is an error like any other (count unknown)
    const options = { env: { ...process.env, PATH: path }, timeout: NVIDIA_SMI_TIMEOUT_MS, windowsHide: true };
    execFile('nvidia-smi', ['--query-gpu=count', '--format=csv,noheader'], options, (err, stdout) => {
      if (err) return resolve({});
      const lines = String(stdout)
        .split('\n')
        .filter((l) => l.trim() !== '');
      resolve(lines.length > 0 ? { 'host.gpu.count': lines.length } : {});
    });
  });
}

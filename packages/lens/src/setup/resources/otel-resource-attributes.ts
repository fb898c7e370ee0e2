/**
 * Parsing `OTEL_RESOURCE_ATTRIBUTES` (`key=value` pairs joined by `,`, values percent-encoded).
 * @module
 */
import type { Attributes } from '@opentelemetry/api';

/**
 * Keys whose values are restored to integers when they arrive as complete base-10 strings through
 * the environment (the env channel only carries strings; the original does the same).
 */
export const INTEGER_RESOURCE_KEYS: ReadonlySet<string> = new Set(['slurm.array.count', 'slurm.nnodes', 'slurm.ntasks', 'slurm.restart_count', 'nv.dl.rank', 'nv.dl.world_size', 'nv.dl.local_rank']);

/**
 * Parses an `OTEL_RESOURCE_ATTRIBUTES` value: split on `,`, skip empty or `=`-less segments,
 * key = text before the first `=` trimmed, value = percent-decoded trimmed remainder (kept raw when
 * it is not valid percent-encoding); the last duplicate wins. Never throws.
 */
export function parseOtelResourceAttributes(text: string | undefined): Attributes {
  const out: Attributes = {};
  if (!text) return out;
  for (const segment of text.split(',')) {
    const eq = segment.indexOf('=');
    if (eq < 0) continue;
    const key = segment.slice(0, eq).trim();
    if (key === '') continue;
    const raw = segment.slice(eq + 1).trim();
    let value: string;
    try {
      value = decodeURIComponent(raw);
    } catch {
      value = raw;
    }
    out[key] = INTEGER_RESOURCE_KEYS.has(key) && /^[+-]?\d+$/.test(value) ? Number.parseInt(value, 10) : value;
  }
  return out;
}

/**
 * Formats attributes for `OTEL_RESOURCE_ATTRIBUTES` (values percent-encoded, so commas and `=` in
 * values survive). Keys containing `,` or `=` and non-scalar values are skipped.
 */
export function formatOtelResourceAttributes(attrs: Attributes): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(attrs)) {
    if (key === '' || key.includes(',') || key.includes('=')) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') continue;
    parts.push(`${key}=${encodeURIComponent(String(value))}`);
  }
  return parts.join(',');
}

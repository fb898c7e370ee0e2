/**
 * Interns resources: every span of a process carries the same resource, and a million copies
 * of it would dominate memory. Also joins the lean console lines to their resource: such a file
 * states each process's resource once (a `"type":"resource"` record) and every later line carries
 * only its process's identity (`service.name`, and `service.instance.id` or `process.pid`); the
 * line takes the resource its file last stated for that identity, or, with none stated, a resource
 * of the identity fields alone.
 * @module
 */
import { CONSOLE_IDENTITY_FIELDS } from '@gym/names';
import type { Attributes, SpanResource } from '../span-record.js';

/** The scope a resource record states for the lines that carry none. */
export type StatedScope = { name: string; version?: string } | null;

/** What a file stated for one process. */
interface Stated {
  resource: SpanResource;
  scope: StatedScope;
}

/** Hands out one shared {@link SpanResource} per distinct attribute set. */
export class ResourceCache {
  // Candidates by service.name, compared shallowly: cheaper than a JSON key per span, and a file
  // rarely holds more than a few resources per service name.
  #byService = new Map<unknown, SpanResource[]>();
  #size = 0;
  /** By file, then by identity key (see {@link identityKey}). */
  #stated = new Map<string, Map<string, Stated>>();

  /** The shared resource for `attributes`. */
  intern(attributes: Attributes): SpanResource {
    const service = attributes['service.name'];
    let list = this.#byService.get(service);
    if (list === undefined) this.#byService.set(service, (list = []));
    for (const r of list) if (sameAttributes(r.attributes, attributes)) return r;
    const r = { attributes };
    list.push(r);
    this.#size++;
    return r;
  }

  /** Number of distinct resources seen. */
  get size(): number {
    return this.#size;
  }

  /** Takes a resource record (`{"type":"resource",…}`) of `file`: later lines of its process join it. */
  state(file: string, record: Record<string, unknown>): void {
    const attributes = record['attributes'];
    const given = attributes !== null && typeof attributes === 'object' && !Array.isArray(attributes) ? (attributes as Attributes) : {};
    // the record's own identity fields win: they are what the lines are joined by
    const resource = this.intern({ ...given, ...identityFields(record) });
    const scope = record['scope'] as { name?: unknown; version?: unknown } | undefined;
    let byIdentity = this.#stated.get(file);
    if (byIdentity === undefined) this.#stated.set(file, (byIdentity = new Map<string, Stated>()));
    byIdentity.set(identityKey(record), { resource, scope: scopeOf(scope) });
  }

  /** The resource and stated scope of a line of `file` that carries its process's identity instead of a resource. */
  ofLine(file: string, line: Record<string, unknown>): Stated {
    const stated = this.#stated.get(file)?.get(identityKey(line));
    return stated ?? { resource: this.intern(identityFields(line)), scope: null };
  }
}

/** Whether a line carries its process's identity rather than a `resource` block. */
export function carriesIdentity(line: Record<string, unknown>): boolean {
  return line['resource'] === undefined && typeof line['service.name'] === 'string';
}

/** An instrumentation scope as records write it, or null. */
export function scopeOf(scope: { name?: unknown; version?: unknown } | undefined | null): StatedScope {
  return typeof scope?.name === 'string' ? { name: scope.name, ...(typeof scope.version === 'string' ? { version: scope.version } : {}) } : null;
}

// service.name, then service.instance.id when there is one, else the pid: what a line carries
function identityKey(obj: Record<string, unknown>): string {
  const instance = obj['service.instance.id'];
  return typeof instance === 'string' ? `${String(obj['service.name'])}\ni${instance}` : `${String(obj['service.name'])}\np${String(obj['process.pid'])}`;
}

function identityFields(obj: Record<string, unknown>): Attributes {
  const out: Attributes = {};
  for (const key of CONSOLE_IDENTITY_FIELDS) {
    const v = obj[key];
    if (typeof v === 'string' || typeof v === 'number') out[key] = v;
  }
  return out;
}

function sameAttributes(a: Attributes, b: Attributes): boolean {
  let n = 0;
  for (const k in b) {
    const x = a[k];
    const y = b[k];
    if (x !== y && !(typeof x === 'object' && typeof y === 'object' && JSON.stringify(x) === JSON.stringify(y))) return false;
    n++;
  }
  return n === Object.keys(a).length;
}

/**
 * Interns resources: every span of a process carries the same resource, and a million copies
 * of it would dominate memory. Also keeps the resource records of the lean console shape (a
 * `{"type":"resource",…}` record once per stream; lines carry only their process's identity).
 * @module
 */
import type { Attributes, SpanResource } from '../span-record.js';

/** Hands out one shared {@link SpanResource} per distinct attribute set. */
export class ResourceCache {
  // Candidates by service.name, compared shallowly: cheaper than a JSON key per span, and a file
  // rarely holds more than a few resources per service name.
  #byService = new Map<unknown, SpanResource[]>();
  #size = 0;
  // lean records: the latest resource record per (file, process identity)
  #byProcess = new Map<string, SpanResource>();
  readonly #onDefine: ((identity: string, attributes: Attributes) => void) | undefined;

  /** `onDefine` hears of every resource record, with its process identity (as {@link processKey} without the file). */
  constructor(onDefine?: (identity: string, attributes: Attributes) => void) {
    this.#onDefine = onDefine;
  }

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

  /** Records a `{"type":"resource",…}` record of `file`: lines of its process that follow resolve to it. */
  define(file: string, record: Record<string, unknown>): void {
    const attributes = record['attributes'];
    const own = attributes !== null && typeof attributes === 'object' && !Array.isArray(attributes) ? (attributes as Attributes) : {};
    const service = record['service.name'];
    const resource = this.intern(typeof service === 'string' && !('service.name' in own) ? { 'service.name': service, ...own } : own);
    this.#byProcess.set(processKey(file, record), resource);
    this.#onDefine?.(processIdentity(record), resource.attributes);
  }

  /** Records a resource record read earlier (its identity as {@link processIdentity} gives it). */
  defineIdentity(file: string, identity: string, attributes: Attributes): void {
    this.#byProcess.set(`${file}\u0000${identity}`, this.intern(attributes));
  }

  /**
   * The resource of a lean line of `file` (one without a `resource` block): the latest resource
   * record of its process (service.name, and service.instance.id or process.pid), else
   * `{service.name}` alone.
   */
  ofLine(file: string, line: Record<string, unknown>): SpanResource {
    const known = this.#byProcess.get(processKey(file, line));
    if (known !== undefined) return known;
    const service = line['service.name'];
    return this.intern(typeof service === 'string' ? { 'service.name': service } : {});
  }

  /** Number of distinct resources seen. */
  get size(): number {
    return this.#size;
  }
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

/** The identity a lean line and its resource record share, within one file. */
export function processKey(file: string, record: Record<string, unknown>): string {
  return `${file}\u0000${processIdentity(record)}`;
}

/** The identity of a record's process: service.name, and service.instance.id or else process.pid. */
export function processIdentity(record: Record<string, unknown>): string {
  const instance = record['service.instance.id'];
  const who = typeof instance === 'string' ? `i:${instance}` : `p:${String(record['process.pid'])}`;
  return `${String(record['service.name'])}\u0000${who}`;
}

/** The resource attributes of a record: its `resource` block, or (lean shape) its process's resource record. */
export function resourceOfRecord(obj: Record<string, unknown>, file: string, resources: ResourceCache): SpanResource {
  const block = obj['resource'] as Record<string, unknown> | undefined;
  if (block === undefined && ('service.name' in obj || 'process.pid' in obj)) return resources.ofLine(file, obj);
  const attributes = block?.['attributes'];
  return resources.intern(attributes !== null && typeof attributes === 'object' && !Array.isArray(attributes) ? (attributes as Attributes) : {});
}

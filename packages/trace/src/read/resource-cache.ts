/**
 * Interns resources: every span of a process carries the same resource, and a million copies
 * of it would dominate memory.
 * @module
 */
import type { Attributes, SpanResource } from '../span-record.js';

/** Hands out one shared {@link SpanResource} per distinct attribute set. */
export class ResourceCache {
  // Candidates by service.name, compared shallowly: cheaper than a JSON key per span, and a file
  // rarely holds more than a few resources per service name.
  #byService = new Map<unknown, SpanResource[]>();
  #size = 0;

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

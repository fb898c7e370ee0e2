/**
 * The attributes of `http.server.request.duration` by method, route and status, made once per
 * combination (a server has a handful) instead of once per request.
 * @module
 */
import type { Attributes } from '@opentelemetry/api';
import { ATTR } from './attributes.js';

/** A lookup of the (frozen, shared) attribute object of each method/route/status. */
export function routeMetricAttributes(): (method: string, route: string | undefined, status: number) => Attributes {
  const cache = new Map<string, Attributes>();
  return (method, route, status) => {
    const key = `${method} ${status} ${route ?? ''}`;
    let attributes = cache.get(key);
    if (attributes === undefined) {
      attributes = Object.freeze(
        route === undefined ? { [ATTR.HTTP_METHOD]: method, [ATTR.HTTP_STATUS]: status } : { [ATTR.HTTP_METHOD]: method, [ATTR.HTTP_STATUS]: status, [ATTR.HTTP_ROUTE]: route },
      );
      // a route template set is bounded; 404s carry no route, so the key space stays small
      if (cache.size < 1024) cache.set(key, attributes);
    }
    return attributes;
  };
}

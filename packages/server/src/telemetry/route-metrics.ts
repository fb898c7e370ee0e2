/**
 * The series of `http.server.request.duration` by method, route and status, bound once per
 * combination (a server has a handful) instead of hashing the attributes on every request.
 * @module
 */
import type { BoundHistogram, LeanHistogram } from '@gym/lens';
import { ATTR } from './attributes.js';

/** A lookup of the bound series of each method/route/status of `histogram`. */
export function routeDurationSeries(histogram: LeanHistogram): (method: string, route: string | undefined, status: number) => BoundHistogram {
  const cache = new Map<string, BoundHistogram>();
  return (method, route, status) => {
    const key = `${method} ${status} ${route ?? ''}`;
    let series = cache.get(key);
    if (series === undefined) {
      series = histogram.bind(route === undefined ? { [ATTR.HTTP_METHOD]: method, [ATTR.HTTP_STATUS]: status } : { [ATTR.HTTP_METHOD]: method, [ATTR.HTTP_STATUS]: status, [ATTR.HTTP_ROUTE]: route });
      // a route template set is bounded; 404s carry no route, so the key space stays small
      if (cache.size < 1024) cache.set(key, series);
    }
    return series;
  };
}

/**
 * Remembers which source (file, `env.yaml`, command line) last set each key path, so errors can
 * name the file a bad value came from.
 * @module
 */
import { formatPath, walkTree } from './tree.js';
import type { KeyPath } from './tree.js';
import type { ConfigMap } from './types.js';

/** Key path → last source that set it. */
export class Provenance {
  #sources = new Map<string, string>();

  /** Records every node of `layer` (a merge layer) as coming from `source`. */
  recordLayer(layer: ConfigMap, source: string): void {
    walkTree(layer, (path) => this.#sources.set(formatPath(path), source));
  }

  /** Records a single path (a CLI override). */
  record(path: KeyPath, source: string): void {
    this.#sources.set(formatPath(path), source);
  }

  /** The source of `path` or of its nearest recorded ancestor; `undefined` when unknown. */
  sourceOf(path: KeyPath): string | undefined {
    for (let n = path.length; n > 0; n--) {
      const hit = this.#sources.get(formatPath(path.slice(0, n)));
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  /** `" (from <source>)"`, or `""` when unknown: a suffix for error lines. */
  describe(path: KeyPath): string {
    const source = this.sourceOf(path);
    return source === undefined ? '' : ` (from ${source})`;
  }
}

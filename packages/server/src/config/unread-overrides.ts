/**
 * Warnings for top-level settings that a `+key=…` / `++key=…` override adds but that nothing reads:
 * neither gym (a built-in or reserved key, or a server block) nor the config (a `${key}`
 * interpolation). A typo such as `+num_repeat=3` would otherwise run with the default in silence.
 * @module
 */
import { BUILTIN_KEYS } from './builtin-keys.js';
import { isReservedKey } from './reserved-keys.js';
import { closeMatches } from './suggest.js';
import { isMap } from './tree.js';
import { UNIMPLEMENTED_SETTINGS } from './unimplemented-settings.js';
import type { ConfigOverride } from './override-parse.js';
import type { ConfigMap } from './types.js';

/** Top-level keys gym reads by itself: the built-in defaults and the original's reserved keys. */
const TOP_LEVEL_BUILTINS: readonly string[] = [...BUILTIN_KEYS].filter((k) => !k.includes('.'));

/**
 * One warning per added top-level scalar or list setting that nothing reads, with a did-you-mean
 * among the keys gym reads. `tree` is the merged config before interpolation, so the `${…}`
 * references that read a key are still there to be found.
 */
export function unreadOverrideWarnings(overrides: readonly ConfigOverride[], tree: ConfigMap): string[] {
  const added = overrides.filter((o) => (o.op === 'add' || o.op === 'force') && o.path.length === 1 && !isMap(o.value));
  if (added.length === 0) return [];
  const referenced = referencedTopLevelKeys(tree);
  const warnings: string[] = [];
  for (const o of added) {
    const key = o.path[0]!;
    if (BUILTIN_KEYS.has(key) || isReservedKey(key) || referenced.has(key) || isUnimplemented(key)) continue;
    const near = closeMatches(key, TOP_LEVEL_BUILTINS);
    const hint = near.length > 0 ? ` Did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : '';
    warnings.push(
      `'${o.text.split('=')[0]}': nothing reads the setting '${key}' (it is neither a gym setting nor used by a \${${key}} in the config), so it has no effect unless a server reads it from the global config.${hint}`,
    );
  }
  return warnings;
}

/** First segments of every `${a.b}` reference in the tree's strings (`${oc.env:…}` names no key). */
function referencedTopLevelKeys(tree: ConfigMap): Set<string> {
  const keys = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const m of value.matchAll(/\$\{\s*([A-Za-z_][\w-]*)/g)) keys.add(m[1]!);
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item);
    } else if (isMap(value)) {
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(tree);
  return keys;
}

function isUnimplemented(key: string): boolean {
  return UNIMPLEMENTED_SETTINGS.some((s) => (s.key.endsWith('_') ? key.startsWith(s.key) : key === s.key));
}

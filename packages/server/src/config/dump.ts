/**
 * Serialising a resolved config back to YAML.
 * @module
 */
import { stringify } from 'yaml';

/**
 * YAML text of `tree`, keys in insertion order, no line folding, strings that YAML would read
 * as something else quoted. Does not redact: pass the result of `redactSecrets` for display.
 */
export function dumpConfigYaml(tree: unknown): string {
  return stringify(tree, { lineWidth: 0, aliasDuplicateObjects: false });
}

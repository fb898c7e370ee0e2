/**
 * How many characters a parsed pattern can match, as Python computes it (`getwidth`): a
 * lookbehind must have a fixed width.
 * @module
 */
import { MAXREPEAT } from './syntax.js';
import type { Node } from './syntax.js';

const MAXWIDTH = Number.POSITIVE_INFINITY;

/** The [min, max] number of characters `nodes` can match (Python's `getwidth`). */
export function width(nodes: readonly Node[], state: { groupWidths: ReadonlyArray<[number, number] | null> }): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const node of nodes) {
    switch (node.type) {
      case 'branch': {
        let i = MAXWIDTH;
        let j = 0;
        for (const alternative of node.alternatives) {
          const [l, h] = width(alternative, state);
          i = Math.min(i, l);
          j = Math.max(j, h);
        }
        lo += i;
        hi += j;
        break;
      }
      case 'atomic':
      case 'group': {
        const [i, j] = width(node.body, state);
        lo += i;
        hi += j;
        break;
      }
      case 'repeat': {
        const [i, j] = width(node.body, state);
        lo += i * node.min;
        hi = node.max === MAXREPEAT && j !== 0 ? MAXWIDTH : hi + j * node.max;
        break;
      }
      case 'char':
      case 'class':
      case 'any':
      case 'category':
        lo++;
        hi++;
        break;
      case 'backref': {
        const [i, j] = state.groupWidths[node.group] ?? [0, 0];
        lo += i;
        hi += j;
        break;
      }
      case 'conditional': {
        let [i, j] = width(node.yes, state);
        if (node.no !== null) {
          const [l, h] = width(node.no, state);
          i = Math.min(i, l);
          j = Math.max(j, h);
        } else i = 0;
        lo += i;
        hi += j;
        break;
      }
      case 'anchor':
      case 'look':
        break;
    }
  }
  return [Math.min(lo, MAXWIDTH), Math.min(hi, MAXWIDTH)];
}

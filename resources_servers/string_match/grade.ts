/**
 * Comparing an extracted answer with `expected_answer`: exact (after trimming) when the row is
 * `case_sensitive`, else the string-match grader — Unicode NFKC, outer quotes, case and trailing
 * `.!?` ignored, then the first equivalence that holds: 1.0 for equal text, number, thousands
 * spelling, LaTeX-free text, list, state names, or unit-free text; 0.98 for numbers within about
 * 1% of each other (or equal only once units are dropped); else 0.0. Pure.
 * @module
 */
import {
  asNumber,
  normalizeLatex,
  normalizeLists,
  normalizeNumbers,
  normalizeStates,
  normalizeUnicodeMath,
  softNumericScore,
  stripOuterQuotes,
  stripTrailingPunctuation,
  withoutUnits,
} from './normalize.js';
import { pyStrip } from './py-text.js';

/** Score above which a near-equal number counts, and the reward it gets. */
const NEAR = 0.98;

/** The reward of `extracted` against `expected`. */
export function matchAnswers(extracted: string, expected: string, caseSensitive: boolean): number {
  if (caseSensitive) return pyStrip(extracted) === pyStrip(expected) ? 1.0 : 0.0;
  return gradeStringMatch(expected, extracted);
}

/** The case-insensitive grader: `expected` is the gold answer, `predicted` the model's. */
export function gradeStringMatch(expected: string, predicted: string): number {
  const gold = canonical(expected);
  const pred = canonical(predicted);
  if (pred === gold) return 1.0;
  const goldNumber = asNumber(gold);
  const predNumber = asNumber(pred);
  // Object.is: -0 and 0 differ and NaN equals NaN, as the original's comparison of float reprs.
  if (goldNumber !== undefined && predNumber !== undefined && Object.is(goldNumber, predNumber)) return 1.0;
  for (const rewrite of [normalizeNumbers, normalizeLatex, normalizeLists, normalizeStates]) if (rewrite(pred) === rewrite(gold)) return 1.0;
  if (softNumericScore(gold, pred) > NEAR) return NEAR;
  const predBare = unitFree(pred);
  const goldBare = unitFree(gold);
  if (predBare === goldBare) return 1.0;
  if (softNumericScore(goldBare, predBare) > NEAR) return NEAR;
  return 0.0;
}

function canonical(s: string): string {
  return stripTrailingPunctuation(stripOuterQuotes(s.normalize('NFKC')).toLowerCase());
}

function unitFree(s: string): string {
  return pyStrip(withoutUnits(normalizeUnicodeMath(normalizeLatex(s))));
}

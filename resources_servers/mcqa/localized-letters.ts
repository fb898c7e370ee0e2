/**
 * Answer letters written in other scripts, as multilingual MCQA sets (MMMLU and the like) print
 * their options: the first four Arabic and Bengali option letters and the full-width Latin A–D.
 * @module
 */
import { pyStrip } from './py-text.js';

/** Each localized letter and the Latin letter it stands for (A–D by position). */
const LOCALIZED_LETTERS: ReadonlyArray<readonly [string, string]> = [
  ...[...'\u0623\u0628\u062c\u062f'].map((ch, i) => [ch, 'ABCD'[i]!] as const), // Arabic alif-hamza, ba, jim, dal
  ...[...'\u0985\u09ac\u09a1\u09a2'].map((ch, i) => [ch, 'ABCD'[i]!] as const), // Bengali a, ba, dda, ddha
  ...[...'\uff21\uff22\uff23\uff24'].map((ch, i) => [ch, 'ABCD'[i]!] as const), // full-width A–D
];

/** Replaces every localized letter by a space and its Latin letter (so `ب` reads as ` B`), then trims. */
export function localizedLettersToLatin(text: string): string {
  let out = text;
  for (const [localized, latin] of LOCALIZED_LETTERS) out = out.replaceAll(localized, ` ${latin}`);
  return pyStrip(out);
}

/**
 * The equivalences the string-match grader tries, each a rewrite applied to both answers before
 * comparing: plain numbers, thousands separators, LaTeX markup, lists, US state names, Unicode
 * math symbols and units. Pure; inputs are already lower case.
 * @module
 */
import { compilePythonRegex } from '@gym/server/python-re';
import { collapseSpace, pyFloat, pyStrip } from './py-text.js';
import { US_STATES } from './us-states.js';

/** LaTeX commands whose braces are dropped, content kept. `\text` goes before `\textbf`: it never matches `\textbf{`. */
const LATEX_COMMANDS = ['\\boxed', '\\text', '\\textbf', '\\textit', '\\texttt', '\\mathrm', '\\mathbf', '\\mathit', '\\mathsf', '\\mathbb', '\\mathcal', '\\emph', '\\url'];
const MATH_DELIMITERS = ['\\(', '\\)', '\\[', '\\]'];
/** Units and degree marks that do not change a numeric answer. */
const MATH_UNITS = compilePythonRegex('\\^\\{?\\\\circ\\}?|\\\\circ|°|cm[²³]?|mm|km|m[²³]?|kg');
const UNICODE_MATH: ReadonlyArray<readonly [string, string]> = [
  ['°', '^\\circ'],
  ['²', '^2'],
  ['³', '^3'],
  ['⁴', '^4'],
  ['⁵', '^5'],
  ['⁶', '^6'],
  ['⁷', '^7'],
  ['⁸', '^8'],
  ['⁹', '^9'],
  ['√', '\\sqrt'],
  ['﹣', '-'],
  ['﹢', '+'],
  ['﹦', '='],
  ['﹤', '<'],
  ['﹥', '>'],
  ['：', ':'],
  ['π', '\\pi'],
];
/** Digits (Python's Unicode ones), a comma, digits. */
const THOUSANDS = compilePythonRegex('(\\d+),(\\d+)');

/** Surrounding matching quotes (`"…"` or `'…'`) removed. */
export function stripOuterQuotes(s: string): string {
  return s.length >= 2 && s[0] === s.at(-1) && (s[0] === '"' || s[0] === "'") ? s.slice(1, -1) : s;
}

/** Trailing `.`, `!`, `?` removed, unless nothing would be left. */
export function stripTrailingPunctuation(s: string): string {
  return s.replace(/[.!?]+$/, '') || s;
}

/** The number an answer is (after dropping `$` and `\%`), or undefined when it is not one. */
export function asNumber(s: string): number | undefined {
  return pyFloat(pyStrip(s.replaceAll('\\%', '').replaceAll('\\$', '').replaceAll('$', '')));
}

/** `1,000` → `1000` (one separator per number per pass, as the original), `\%` → `%`. */
export function normalizeNumbers(s: string): string {
  return THOUSANDS.sub(s, (m) => m.group(1)! + m.group(2)!).replaceAll('\\%', '%');
}

/** LaTeX formatting commands, math delimiters and `$` removed; whitespace collapsed. */
export function normalizeLatex(s: string): string {
  let out = s;
  for (const command of LATEX_COMMANDS) out = removeCommand(command, out);
  for (const delimiter of MATH_DELIMITERS) out = out.replaceAll(delimiter, '');
  return collapseSpace(out.replaceAll('$', ''));
}

/** Drops every `command{` and its matching `}`, keeping what is between; an unclosed one loses only `command{`. */
function removeCommand(command: string, s: string): string {
  const open = `${command}{`;
  let out = s;
  for (let at = out.indexOf(open); at !== -1; at = out.indexOf(open)) {
    const prefix = out.slice(0, at);
    const suffix = out.slice(at + open.length);
    let depth = 1;
    let close = -1;
    for (let i = 0; i < suffix.length && close === -1; i++) {
      if (suffix[i] === '{') depth++;
      else if (suffix[i] === '}' && --depth === 0) close = i;
    }
    out = close === -1 ? prefix + suffix : prefix + suffix.slice(0, close) + suffix.slice(close + 1);
  }
  return out;
}

/**
 * List separators (`,`, `;`, `and`, `or`) become spaces, whitespace collapsed — unless that
 * shortened the text by more than a tenth (then it was prose, not a list, and is kept as is).
 */
export function normalizeLists(s: string): string {
  const spaced = s.replaceAll(',', ' ').replaceAll(';', ' ').replaceAll('and', ' ').replaceAll('or', ' ');
  // Lengths in code points, as Python counts them.
  return [...spaced].length < 0.9 * [...s].length ? s : collapseSpace(spaced);
}

/** State names → postal abbreviations, then as a list, lower case. */
export function normalizeStates(s: string): string {
  let out = s;
  for (const [name, abbreviation] of US_STATES) out = out.replaceAll(name, abbreviation);
  return normalizeLists(out).toLowerCase();
}

/** Units and degree marks removed. */
export function withoutUnits(s: string): string {
  return MATH_UNITS.sub(s, () => '');
}

/** Unicode math symbols (`°`, `²`, `√`, `π`, small-form signs) in their LaTeX/ASCII spelling. */
export function normalizeUnicodeMath(s: string): string {
  let out = s;
  for (const [symbol, spelled] of UNICODE_MATH) out = out.replaceAll(symbol, spelled);
  return out;
}

/**
 * How close two numeric answers are, ignoring currency, `%`, thousands commas and units:
 * (1 − relative error)², at least 0; 0 when either is not a number.
 */
export function softNumericScore(expected: string, predicted: string): number {
  const p = pyFloat(stripNumeric(predicted));
  const g = pyFloat(stripNumeric(expected));
  if (p === undefined || g === undefined) return 0;
  const closeness = 1 - Math.abs(p - g) / Math.max(Math.abs(g), 1e-9);
  // `x > 0 ? x : 0`, not Math.max: a NaN (inf against inf) scores 0 as in the original.
  return (closeness > 0 ? closeness : 0) ** 2;
}

function stripNumeric(s: string): string {
  let out = s;
  for (const ch of ['$', '£', '€', '%', ',']) out = out.replaceAll(ch, '');
  out = withoutUnits(normalizeUnicodeMath(out));
  return pyStrip(out.replaceAll('\\%', '').replaceAll('\\$', ''));
}

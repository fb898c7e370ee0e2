// The Python-regex translation against CPython itself: thousands of generated (pattern, text)
// pairs — random patterns over every construct, multilingual MCQA answer-regex lists on
// multilingual answers, case folds, line separators — each answered by python3 (one process per
// batch) and by the translation; match spans and groups, or the error message, must be identical.
// A pattern the translation refuses must be one Python accepts, and is counted.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { answerOf, askCPython } from './cpython-oracle.js';
import type { MatchAnswer, MatchCase } from './cpython-oracle.js';
import { answerTexts, MULTILINGUAL_MCQA_REGEXES, TWO_CHOICE_REGEXES } from './answer-regexes.js';
import { CHAR_POOLS, FLAG_CHOICES, INVALID_PATTERNS, randomPattern, randomText, seededRandom } from './pattern-generator.js';

const IGNORECASE = 2;
const random = seededRandom(17);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const RANDOM_CASES: MatchCase[] = Array.from({ length: 2500 }, () => ({
  pattern: randomPattern(random),
  flags: pick(FLAG_CHOICES),
  texts: Array.from({ length: 6 }, () => randomText(random, 24)),
}));

const ANSWERS = answerTexts(random, 160);
const ANSWER_CASES: MatchCase[] = [...MULTILINGUAL_MCQA_REGEXES, ...TWO_CHOICE_REGEXES].flatMap((pattern) => [
  { pattern, flags: IGNORECASE, texts: ANSWERS },
  { pattern, flags: 0, texts: ANSWERS },
]);

const FOLDS = CHAR_POOLS['caseFolds']!;
const FOLD_TEXT = [...FOLDS, ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'].join('');
const CASE_FOLD_CASES: MatchCase[] = [...FOLDS, ...'ikKsSµ'].flatMap((ch) => [
  { pattern: ch, flags: IGNORECASE, texts: [FOLD_TEXT] },
  { pattern: `[${ch}]`, flags: IGNORECASE, texts: [FOLD_TEXT] },
  { pattern: `[^${ch}]`, flags: IGNORECASE, texts: [FOLD_TEXT] },
  { pattern: ch, flags: IGNORECASE | 256, texts: [FOLD_TEXT] },
]);

const LINES = ['a\nb\n', 'a\r\nb', 'a\u2028b\u2029c', 'x\x85y', 'end\n', 'end\n\n', '\n', '', 'a\rb\x0bc\x0cd'];
const LINE_CASES: MatchCase[] = ['.', '.+', '^.*$', '(?m)^.*$', '(?s).+', '$', '(?m)$', '\\Z', '^', '(?m)^', '.$', '(?m).$', '\\s+', '\\S+', '\\b', '\\B'].map((pattern) => ({
  pattern,
  flags: 0,
  texts: LINES,
}));

const ERROR_CASES: MatchCase[] = INVALID_PATTERNS.map((pattern) => ({ pattern, flags: 0, texts: ['abc'] }));

const pairs = (cases: MatchCase[]): number => cases.reduce((n, c) => n + c.texts.length, 0);

function compare(cases: MatchCase[], expected: MatchAnswer[]): { refused: Map<string, number>; errors: number } {
  const refused = new Map<string, number>();
  let errors = 0;
  cases.forEach((test, i) => {
    const ours = answerOf(test);
    const python = expected[i]!;
    if ('refused' in ours) {
      assert.ok(!('error' in python), `refused ${JSON.stringify(test.pattern)}, which Python rejects: ${'error' in python ? python.error : ''}`);
      refused.set(ours.refused, (refused.get(ours.refused) ?? 0) + 1);
      return;
    }
    if ('error' in python) errors++;
    assert.deepEqual(ours, python, `pattern ${JSON.stringify(test.pattern)} flags ${test.flags}`);
  });
  return { refused, errors };
}

describe('Python regex translation against CPython', () => {
  let answers: MatchAnswer[] = [];
  const all = [...RANDOM_CASES, ...ANSWER_CASES, ...CASE_FOLD_CASES, ...LINE_CASES, ...ERROR_CASES];
  before(() => {
    answers = askCPython<MatchAnswer[]>({ kind: 'match', cases: all });
  });
  const slice = (cases: MatchCase[]): MatchAnswer[] => {
    const start = all.indexOf(cases[0]!);
    return answers.slice(start, start + cases.length);
  };

  it(`random patterns: ${RANDOM_CASES.length} patterns, ${pairs(RANDOM_CASES)} (pattern, text) pairs, same spans or same error`, () => {
    const { refused, errors } = compare(RANDOM_CASES, slice(RANDOM_CASES));
    const refusedCount = [...refused.values()].reduce((a, b) => a + b, 0);
    console.log(`  ${errors} patterns Python rejects (same message here); ${refusedCount} refused as untranslatable: ${JSON.stringify(Object.fromEntries(refused))}`);
    assert.ok(refusedCount < RANDOM_CASES.length / 10, `too many refusals: ${refusedCount}`);
  });

  it(`multilingual answer-regex lists: ${ANSWER_CASES.length / 2} patterns × ${ANSWERS.length} answers, with and without IGNORECASE (${pairs(ANSWER_CASES)} pairs)`, () => {
    const { refused } = compare(ANSWER_CASES, slice(ANSWER_CASES));
    assert.equal(refused.size, 0);
  });

  it(`case folds: ${CASE_FOLD_CASES.length} patterns over every fold-sensitive letter`, () => {
    compare(CASE_FOLD_CASES, slice(CASE_FOLD_CASES));
  });

  it(`line rules: ${LINE_CASES.length} patterns × ${LINES.length} texts with \\r, U+2028/9, \\x85`, () => {
    compare(LINE_CASES, slice(LINE_CASES));
  });

  it(`Python's errors: ${ERROR_CASES.length} patterns of every kind of mistake, the same message and exception class`, () => {
    const { errors } = compare(ERROR_CASES, slice(ERROR_CASES));
    assert.ok(errors >= ERROR_CASES.length - 6, `${errors} errors`);
  });
});

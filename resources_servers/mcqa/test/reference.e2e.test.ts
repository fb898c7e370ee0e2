/**
 * mcqa against the original's grading, end to end: generated rows (every grading mode; boxed,
 * `Answer:` and markdown replies; localized letters; option text; the multilingual answer-regex
 * lists of MMMLU- and Global-PIQA-style datasets) are posted to `/verify` of a real mcqa server
 * process, and each reward, expected and extracted answer must equal what `reference_grader.py` —
 * the original's grading restated in Python — gives for the same row under CPython.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { startGymEnv } from '../../../packages/runtime/test/support/gym-process.js';
import type { GymEnv } from '../../../packages/runtime/test/support/gym-process.js';
import { MULTILINGUAL_MCQA_REGEXES, TWO_CHOICE_REGEXES, answerTexts } from '../../../packages/server/test/python-re/answer-regexes.js';
import { seededRandom } from '../../../packages/server/test/python-re/pattern-generator.js';

const REFERENCE = fileURLToPath(new URL('./reference_grader.py', import.meta.url));
const random = seededRandom(2026);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const MODES = ['strict_single_letter_boxed', 'lenient_boxed', 'lenient_answer_colon', 'lenient_answer_colon_md'];
const OPTION_SETS: Array<Array<Record<string, string | null>>> = [
  [{ A: 'Paris' }, { B: 'London' }, { C: 'Rome' }, { D: 'Berlin' }],
  [{ A: 'one' }, { B: 'two' }],
  [...'ABCDEFGHIJ'].map((letter) => ({ [letter]: `option ${letter}` })),
  [{ A: 'Ja' }, { B: null }, { C: 'Nein' }, { D: 'Vielleicht' }],
  [{ A: 'الرباط' }, { B: 'القاهرة' }, { C: 'تونس' }, { D: 'عمان' }],
];
const PATTERNS: unknown[] = [
  MULTILINGUAL_MCQA_REGEXES,
  TWO_CHOICE_REGEXES,
  'Answer:\\s*([A-Za-z])',
  'answer is \\(?([A-J])\\)?',
  '(?P<choice>[A-D])\\s*$',
  'Final Choice:\\s*(.+)',
  ['([', 'Answer\\s*:\\s*(\\w)'],
  '\\bAnswer\\b\\W+(\\w)',
  '(A).*(B)',
];
const FORMS: Array<(letter: string, option: string) => string> = [
  (l) => `\\boxed{${l}}`,
  (l) => `\\boxed{\\text{${l}}}`,
  (l, o) => `\\boxed{${l}: ${o}}`,
  (_l, o) => `\\boxed{${o}}`,
  (l) => `Answer: ${l}`,
  (l) => `answer : ${l.toLowerCase()}`,
  (_l, o) => `Answer: ${o}`,
  (l) => `**Answer: ${l}**`,
  (l) => `__Answer__: (${l})`,
  (l) => `Answer: ${l}/B`,
  (l) => `Answer: ${l} or C`,
  (l) => `Answer: $${l}$ because it fits`,
  (l) => `Anſwer: ${l}`,
  (l) => `The answer is ${l}.`,
  (l) => `答案是${l}。`,
  (l) => `정답은 ${l}입니다`,
  (l) => `คำตอบคือ${l}`,
  (l) => `Final Choice: ${l}\r\n`,
];

function body(text: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    responses_create_params: { input: [{ role: 'user', content: 'Q?' }] },
    response: { id: 'r', output: [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }] },
    ...fields,
  };
}

const ANSWERS = answerTexts(random, 400);
const CASES: Array<Record<string, unknown>> = Array.from({ length: 1600 }, () => {
  const options = pick(OPTION_SETS);
  const entry = pick(options);
  const [letter, option] = Object.entries(entry)[0]!;
  const localized = random() < 0.15 ? pick(['أ', 'ب', 'ج', 'د', 'অ', 'ব', 'Ａ', 'Ｃ']) : letter;
  const reply =
    random() < 0.3 ? pick(ANSWERS) : `${pick(['', 'Let me think.\n', 'Option A seems wrong. '])}${pick(FORMS)(localized, option ?? '')}${pick(['', '.', '\n', ' ', '\ufeff', '\u2028More text.'])}`;
  const fields: Record<string, unknown> = {
    options,
    expected_answer: pick([letter, letter.toLowerCase(), ` ${letter} `, 'B', '']),
    grading_mode: pick(MODES),
  };
  if (random() < 0.4) fields['template_metadata'] = { output_regex: pick(PATTERNS) };
  return body(random() < 0.03 ? '  ' : reply, fields);
});

describe(`mcqa /verify against the original's grading (${CASES.length} generated rows)`, () => {
  let env: GymEnv;
  before(async () => {
    env = await startGymEnv(['--resources-server', 'mcqa', '--model-type', 'simulated_model']);
  });
  after(async () => {
    await env?.dispose();
  });

  it(`${CASES.length} rows: same reward, expected and extracted answer (or the same failed request)`, async () => {
    const reference = JSON.parse(execFileSync('python3', [REFERENCE], { input: JSON.stringify({ cases: CASES }), maxBuffer: 1 << 28 }).toString()) as Array<Record<string, unknown>>;
    const url = `${env.url('mcqa')}/verify`;
    let failedRequests = 0;
    let rewarded = 0;
    const differences: object[] = [];
    for (const [i, row] of CASES.entries()) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(row) });
      const answer = (await res.json()) as Record<string, unknown> | string;
      const expected = reference[i]!;
      if ('error' in expected) {
        failedRequests++;
        if (res.status !== 500 || !String(answer).startsWith(`${String(expected['error'])}(`)) differences.push({ row, expected, got: answer });
        continue;
      }
      const got = answer as Record<string, unknown>;
      if (got['reward'] === 1) rewarded++;
      const ours = { reward: got['reward'], expected_answer: got['expected_answer'], extracted_answer: got['extracted_answer'] };
      if (!isDeepStrictEqual(ours, expected)) differences.push({ row, expected, got: ours });
    }
    console.log(`  ${rewarded} rows rewarded 1.0, ${failedRequests} requests failed in both, ${differences.length} differ`);
    assert.deepEqual(differences.slice(0, 3), [], `${differences.length} of ${CASES.length} rows differ`);
    assert.ok(failedRequests < CASES.length / 10);
  });
});

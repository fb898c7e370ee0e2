/**
 * string_match against the original's grading, end to end: generated rows (every extraction mode,
 * case sensitivity, numbers in many spellings and scripts, LaTeX, lists, states, units, trailing
 * periods, U+FEFF and other separators Python and JavaScript disagree on) are posted to `/verify`
 * of a real string_match server process, and each reward and extracted answer must equal what
 * `reference_grader.py` — the original's grading restated in Python — gives under CPython.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { startGymEnv } from '../../../packages/runtime/test/support/gym-process.js';
import type { GymEnv } from '../../../packages/runtime/test/support/gym-process.js';
import { seededRandom } from '../../../packages/server/test/python-re/pattern-generator.js';

const REFERENCE = fileURLToPath(new URL('./reference_grader.py', import.meta.url));
const random = seededRandom(3501);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Gold answers and ways a model may write each. */
const ANSWERS: Array<[string, string[]]> = [
  ['Paris', ['Paris', 'paris', '"Paris"', 'Paris.', 'Paris!', '\\text{Paris}', 'PARIS', 'Pariſ', 'Lyon']],
  ['1000', ['1000', '1,000', '1000.0', '1e3', '١٠٠٠', '１０００', '$1000', '1000 kg', '1001', '999.9', '1 000', '1_000']],
  ['3.14159', ['3.14159', '3.14', '3.1416', '\\pi', 'π', '3.14159.', '3.142']],
  ['90°', ['90°', '90^\\circ', '90', '90 degrees', '\\(90^{\\circ}\\)', '91']],
  ['new york and texas', ['NY and TX', 'New York, Texas', 'texas and new york', 'new york; texas', 'ny tx']],
  ['5 cm', ['5 cm', '5cm', '5', '5 mm', '5.02 cm', '50 mm']],
  ['x^2', ['x^2', 'x²', '$x^2$', '\\(x^2\\)', 'x^3']],
  ['٣', ['٣', '3', '3.0', '三']],
  ['50%', ['50%', '50\\%', '0.5', '50 %', '51%']],
  ['Ⅻ', ['Ⅻ', 'XII', '12']],
  ['a, b, c', ['a, b, c', 'a b c', 'a; b; c', 'a, b and c', 'c, b, a']],
];
const LEADS = ['Final answer: ', 'Final Answer:', 'final  answer : ', 'Answer: ', 'ANSWER：', 'Anſwer: ', 'The result is ', '\\boxed{', 'So the answer is \\boxed{\\text{', ''];
const TAILS = ['', '.', '..', '. ', '.\n', '\ufeff', '.\ufeff', '\u2028', '\r\nThanks.', '\nAnswer: 42', '}', '}}', '}.', ' \u00a0', '\x85'];
const MODES = ['boxed', 'final_answer', 'last_line', 'full_response'];

const CASES: Array<Record<string, unknown>> = Array.from({ length: 3000 }, () => {
  const [gold, writings] = pick(ANSWERS);
  const text = `${pick(['', 'Let me work it out.\n', 'Step 1: 2+2=4.\n\n'])}${pick(LEADS)}${pick(writings)}${pick(TAILS)}`;
  const fields: Record<string, unknown> = { expected_answer: random() < 0.03 ? '' : gold };
  if (random() < 0.8) fields['extraction_mode'] = pick(MODES);
  if (random() < 0.15) fields['case_sensitive'] = true;
  return {
    responses_create_params: { input: [{ role: 'user', content: 'Q?' }] },
    response: { id: 'r', output: [{ type: 'message', id: 'm', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }] },
    ...fields,
  };
});

describe(`string_match /verify against the original's grading (${CASES.length} generated rows)`, () => {
  let env: GymEnv;
  before(async () => {
    env = await startGymEnv(['--resources-server', 'string_match', '--model-type', 'simulated_model']);
  });
  after(async () => {
    await env?.dispose();
  });

  it(`${CASES.length} rows: same reward and extracted answer`, async () => {
    const reference = JSON.parse(execFileSync('python3', [REFERENCE], { input: JSON.stringify({ cases: CASES }), maxBuffer: 1 << 28 }).toString()) as Array<Record<string, unknown>>;
    const url = `${env.url('string_match')}/verify`;
    const rewards = new Map<unknown, number>();
    const differences: object[] = [];
    for (const [i, row] of CASES.entries()) {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(row) });
      const got = (await res.json()) as Record<string, unknown>;
      rewards.set(got['reward'], (rewards.get(got['reward']) ?? 0) + 1);
      const ours = { reward: got['reward'], expected_answer: got['expected_answer'], extracted_answer: got['extracted_answer'] };
      if (res.status !== 200 || !isDeepStrictEqual(ours, reference[i])) differences.push({ row, expected: reference[i], got });
    }
    console.log(`  rewards: ${JSON.stringify(Object.fromEntries(rewards))}, ${differences.length} rows differ`);
    assert.deepEqual(differences.slice(0, 3), [], `${differences.length} of ${CASES.length} rows differ`);
  });
});

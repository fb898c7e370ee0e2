/**
 * Generated verify cases for the reward-equality test: rule variants (the original's defaults,
 * swap checks, config regexes, labels where one contains the other), rows that exercise every
 * extraction path, and a script of judge outputs per case.
 * @module
 */

/** One case: the server variant, the `/verify` row, and what the judge answers to each call. */
export interface JudgeCase {
  variant: string;
  row: Record<string, unknown>;
  replies: unknown[][];
}

const DEFAULTS: Record<string, unknown> = {
  judge_system_message: null,
  judge_equal_label: '[[A=B]]',
  judge_not_equal_label: '[[A!=B]]',
  question_extract_regex: null,
  response_extract_regex: null,
  msg_extraction_failure: '[NO VALID ANSWER EXTRACTED]',
  check_twice_swap: false,
  reward_if_swap_fails: 0.0,
  use_per_record_regex: true,
  extraction_length_threshold: 120,
  check_full_generation_on_fail: true,
  reward_if_full_generation_succeeds: 0.5,
};

/** Server configs by variant name (every key the rules read, as the reference needs them). */
export const VARIANTS: Record<string, Record<string, unknown>> = {
  defaults: DEFAULTS,
  swap: { ...DEFAULTS, check_twice_swap: true, reward_if_swap_fails: -1.0, judge_system_message: 'You are a strict grader.', extraction_length_threshold: 20 },
  config_regex: {
    ...DEFAULTS,
    use_per_record_regex: false,
    question_extract_regex: 'Question:\\s*(.*?)\\s*$',
    response_extract_regex: '(?:Answer|Antwort|答案)\\s*[:：]\\s*(\\w+)',
    check_twice_swap: true,
  },
  labels: {
    ...DEFAULTS,
    judge_equal_label: 'CORRECT',
    judge_not_equal_label: 'INCORRECT',
    extraction_length_threshold: null,
    check_full_generation_on_fail: true,
    reward_if_full_generation_succeeds: 0.25,
  },
};

function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LONG = 'The mitochondrion produces most of the cell’s ATP through oxidative phosphorylation across its inner membrane, driven by a proton gradient.';
const EXPECTED = ['Paris', '42', '3x^2', '  spaced  ', '', 'Ünïcödé Straße', LONG, 'x'.repeat(21), '答え'];
const QUESTIONS = ['Question: What is the capital of France?', 'What is 6 × 7?\nQuestion: derivative of x^3?', '  ', 'Frage: Wie heißt das?', 'Question:'];
const ANSWERS = [
  'Final answer: Paris',
  'The answer is 42.\nAnswer: 42',
  'Antwort: Straße\n',
  '答案：北京',
  'Let me think.\n\nFinal answer:   3x^2  \nDone.',
  '',
  '   ',
  'Answer: ',
  LONG,
  'no marker at all',
  'Final answer: ' + 'ä'.repeat(30),
];
const ROW_REGEXES = [undefined, 'Final answer:\\s*(\\S+)', '([a-', '', '(?P<a>\\w+)\\s*$', 'Answer:\\s*(.*)', '(\\d+)|(Paris)', 7, ['x']];
const JUDGE_TEXTS = [
  'They match. [[A=B]] equivalent',
  'No. [[A!=B]] not equivalent',
  'First [[A!=B]], then [[A=B]]',
  'First [[A=B]], then [[A!=B]]',
  'no verdict',
  '',
  'CORRECT',
  'INCORRECT',
  'This is CORRECT, not INCORRECT',
];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

function assistantMessage(next: () => number, text: string): Record<string, unknown> {
  const shape = next();
  if (shape < 0.2) return { type: 'message', role: 'assistant', content: text };
  const parts = shape < 0.4 ? text.split('\n').map((t) => ({ type: 'output_text', text: t, annotations: [] })) : [{ type: 'output_text', text, annotations: [] }];
  return { type: 'message', role: 'assistant', status: 'completed', content: shape > 0.9 ? [...parts, { type: 'refusal', refusal: 'no' }] : parts };
}

function judgeOutput(next: () => number): unknown[] {
  const shape = next();
  if (shape < 0.05) return [];
  if (shape < 0.1) return [{ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }];
  if (shape < 0.13) return [{ type: 'message', role: 'assistant', content: [] }];
  const text = pick(next, JUDGE_TEXTS);
  const reasoning = next() < 0.2 ? [{ type: 'reasoning', summary: [] }] : [];
  // the verdict is read from the last part only
  const parts =
    next() < 0.15
      ? [
          { type: 'output_text', text: '[[A=B]] CORRECT', annotations: [] },
          { type: 'output_text', text, annotations: [] },
        ]
      : [{ type: 'output_text', text, annotations: [] }];
  return [...reasoning, { type: 'message', role: 'assistant', content: parts }];
}

/** `count` cases from a fixed seed. */
export function judgeCases(count: number): JudgeCase[] {
  const next = random(3131);
  const variants = Object.keys(VARIANTS);
  const cases: JudgeCase[] = [];
  for (let i = 0; i < count; i++) {
    const input: unknown[] = [{ role: 'system', content: 'Be brief.' }];
    const question = pick(next, QUESTIONS);
    if (next() < 0.15) input.push({ role: 'user', content: [{ type: 'input_text', text: 'parts are not read' }] });
    else input.push({ role: 'user', content: question });
    if (next() < 0.2) input.push({ role: 'assistant', content: 'earlier' }, { role: 'user', content: `Question: follow-up ${i}` });
    const output: unknown[] = [];
    if (next() < 0.2) output.push({ type: 'reasoning', summary: [] });
    if (next() < 0.1) output.push(assistantMessage(next, 'an earlier message'));
    if (next() < 0.9) output.push(assistantMessage(next, pick(next, ANSWERS)));
    if (next() < 0.05) output.push({ type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' });
    const row: Record<string, unknown> = { responses_create_params: { input: next() < 0.05 ? 'a string input' : input }, response: { output } };
    const expected = pick(next, EXPECTED);
    const where = next();
    if (where < 0.7) row['expected_answer'] = expected;
    else if (where < 0.85) row['metadata'] = { expected_answer: next() < 0.5 ? expected : 42 };
    const regex = pick(next, ROW_REGEXES);
    if (regex !== undefined) row['template_metadata'] = { output_regex: regex };
    cases.push({ variant: pick(next, variants), row, replies: [judgeOutput(next), judgeOutput(next)] });
  }
  return cases;
}

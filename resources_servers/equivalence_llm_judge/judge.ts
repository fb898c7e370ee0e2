/**
 * The original's judging rules, over a judge the caller provides (`ask`: one call to the judge
 * model with a prompt). First pass: the judge compares the expected answer with the extracted
 * one. Not equal → optionally a second pass on the whole generation (partial credit,
 * `reward_if_full_generation_succeeds`) when the row has its own `output_regex`. Equal →
 * optionally a second pass with the two answers swapped (`check_twice_swap`, positional bias;
 * `reward_if_swap_fails` when it disagrees). Long expected answers with a row regex skip both second
 * passes. The verdict is whichever label comes first in the judge's last message part; neither
 * label counts as not equal.
 * @module
 */
import type { PythonPattern } from '@gym/server/python-re';
import { compileExtractPattern, lastAssistantText, pyLen, questionText } from './extract.js';
import type { PromptFields, PromptTemplate } from './prompt-template.js';

/** The settings the rules read (the original's config keys). */
export interface JudgeRules {
  judge_system_message: string | null;
  judge_equal_label: string;
  judge_not_equal_label: string;
  msg_extraction_failure: string;
  check_twice_swap: boolean;
  reward_if_swap_fails: number;
  use_per_record_regex: boolean;
  extraction_length_threshold: number | null;
  check_full_generation_on_fail: boolean;
  reward_if_full_generation_succeeds: number;
}

/** The row fields the rules read. */
export interface JudgedRow {
  responses_create_params: { input?: unknown };
  response: { output: readonly unknown[] };
  expected_answer: string | null;
  metadata: Record<string, unknown> | null;
  template_metadata?: unknown;
}

/** One judge call as the verify answer records it. */
export interface JudgeEvaluation {
  responses_create_params: Record<string, unknown>;
  response: Record<string, unknown>;
  verdict_label: string | null;
}

/** Asks the judge with these input messages; returns the request sent and the judge's response. */
export type AskJudge = (input: Array<{ role: 'system' | 'user'; content: string }>) => Promise<{ request: Record<string, unknown>; response: Record<string, unknown> }>;

/** Patterns compiled once per server. */
export interface JudgePatterns {
  question: PythonPattern | null;
  response: PythonPattern | null;
}

/** `str(x)` of Python for the JSON values a row's `metadata.expected_answer` can hold. */
function pyStr(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  return typeof value === 'number' ? String(value) : JSON.stringify(value);
}

/** The expected answer: the row's (when not empty), else `metadata.expected_answer`, else ''. */
export function expectedAnswerOf(row: JudgedRow): string {
  if (row.expected_answer) return row.expected_answer;
  const fromMetadata = row.metadata?.['expected_answer'];
  return fromMetadata === undefined || fromMetadata === null ? '' : pyStr(fromMetadata);
}

/** The row's own `template_metadata.output_regex` when the rules use it and it is truthy (Python's truthiness), else null. */
function rowRegex(rules: JudgeRules, row: JudgedRow): unknown {
  if (!rules.use_per_record_regex) return null;
  const metadata = row.template_metadata;
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) return null;
  const regex = (metadata as Record<string, unknown>)['output_regex'];
  return isTruthy(regex) ? regex : null;
}

/** Python's truthiness of a JSON value. */
function isTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  return typeof value !== 'object' || Object.keys(value).length > 0;
}

/** The row's pattern, compiled when first used, as `re.finditer` compiles it: a value that is not a string fails there, as in the original. */
function lazyPattern(regex: unknown): () => PythonPattern | null {
  return () => {
    if (typeof regex !== 'string') throw new TypeError(`template_metadata.output_regex must be a string pattern, got ${JSON.stringify(regex)}`);
    return compileExtractPattern(regex);
  };
}

/** The verdict in the judge's response: [equal, label]. */
export function verdictOf(response: Record<string, unknown>, rules: JudgeRules): [boolean, string | null] {
  const output = response['output'];
  const last = Array.isArray(output) ? (output.at(-1) as { type?: unknown; content?: unknown } | undefined) : undefined;
  if (last?.type !== 'message' || !Array.isArray(last.content) || last.content.length === 0) return [false, null];
  const text = (last.content.at(-1) as { text?: unknown } | null)?.text;
  const said = typeof text === 'string' ? text : '';
  const eq = said.indexOf(rules.judge_equal_label);
  const neq = said.indexOf(rules.judge_not_equal_label);
  if (eq < 0 && neq < 0) return [false, null];
  if (eq >= 0 && (neq < 0 || eq < neq)) return [true, rules.judge_equal_label];
  return [false, rules.judge_not_equal_label];
}

/** The reward and the judge's evaluations for `row`. */
export async function judgeRow(
  row: JudgedRow,
  rules: JudgeRules,
  patterns: JudgePatterns,
  template: PromptTemplate,
  ask: AskJudge,
): Promise<{ reward: number; expected_answer: string; judge_evaluations: JudgeEvaluation[] }> {
  const expected = expectedAnswerOf(row);
  const question = questionText(row.responses_create_params.input, patterns.question);
  const own = rowRegex(rules, row);
  const long = rules.extraction_length_threshold !== null && pyLen(expected) > rules.extraction_length_threshold;
  // a row regex over a long expected answer is skipped: the whole generation is judged, once
  const skipSecondPass = own !== null && long;
  const pattern = own === null ? patterns.response : long ? null : lazyPattern(own);
  const generated = lastAssistantText(row.response.output, pattern, rules.msg_extraction_failure);

  const evaluate = async (fields: PromptFields): Promise<[boolean, JudgeEvaluation]> => {
    const input: Array<{ role: 'system' | 'user'; content: string }> = [];
    if (rules.judge_system_message) input.push({ role: 'system', content: rules.judge_system_message });
    input.push({ role: 'user', content: template.fill(fields) });
    const { request, response } = await ask(input);
    const [equal, label] = verdictOf(response, rules);
    return [equal, { responses_create_params: request, response, verdict_label: label }];
  };
  const done = (reward: number, judge_evaluations: JudgeEvaluation[]) => ({ reward, expected_answer: expected, judge_evaluations });

  const [equal, first] = await evaluate({ question, expected_answer: expected, generated_answer: generated });
  if (!equal) {
    if (skipSecondPass || !rules.check_full_generation_on_fail || own === null) return done(0.0, [first]);
    const whole = lastAssistantText(row.response.output, null, rules.msg_extraction_failure);
    const [rescued, second] = await evaluate({ question, expected_answer: expected, generated_answer: whole });
    return done(rescued ? rules.reward_if_full_generation_succeeds : 0.0, [first, second]);
  }
  if (!rules.check_twice_swap || skipSecondPass) return done(1.0, [first]);
  const [agreed, second] = await evaluate({ question, expected_answer: generated, generated_answer: expected });
  return done(agreed ? 1.0 : rules.reward_if_swap_fails, [first, second]);
}

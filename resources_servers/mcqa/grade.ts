/**
 * Grading one MCQA answer: the dataset's `template_metadata.output_regex` first, then the grading
 * mode; reward 1.0 when the extracted letter is the expected one. Pure.
 * @module
 */
import { answerColonLetter, markdownAnswerColonLetter } from './answer-colon.js';
import { boxedLetter, boxedOptionText } from './boxed.js';
import { allowedLetters } from './options.js';
import { outputRegexAnswer } from './output-regex.js';
import { pyStrip } from './py-text.js';
import type { OptionEntry } from './options.js';

/** How the answer letter is read from the model's text (README "Grading modes"). */
export const GRADING_MODES = ['strict_single_letter_boxed', 'lenient_boxed', 'lenient_answer_colon', 'lenient_answer_colon_md'] as const;
export type GradingMode = (typeof GRADING_MODES)[number];

/** What a grade needs from the task row. */
export interface McqaTask {
  options: OptionEntry[] | null;
  expected_answer: string | null;
  template_metadata: Record<string, unknown> | null;
}

/** The grade: the reward, the expected letter as compared (trimmed, upper case) and the letter read. */
export type McqaGrade = {
  reward: number;
  expected_answer: string;
  extracted_answer: string | null;
};

/** Grades `outputText` (the model's final text) against `task` with `mode`. */
export function gradeAnswer(outputText: string, task: McqaTask, mode: GradingMode): McqaGrade {
  const expected = pyStrip(task.expected_answer ?? '').toUpperCase();
  const text = pyStrip(outputText);
  const extracted = text === '' ? null : extractLetter(text, task, mode);
  const correct = extracted !== null && expected !== '' && extracted === expected;
  return { reward: correct ? 1.0 : 0.0, expected_answer: expected, extracted_answer: extracted };
}

function extractLetter(text: string, task: McqaTask, mode: GradingMode): string | null {
  const allowed = allowedLetters(task.options);
  const metadata = task.template_metadata;
  if (metadata !== null && 'output_regex' in metadata) {
    const fromTemplate = outputRegexAnswer(text, metadata['output_regex'], task.options, allowed);
    if (fromTemplate !== null) return fromTemplate;
  }
  switch (mode) {
    case 'strict_single_letter_boxed':
      return boxedLetter(text, allowed);
    case 'lenient_boxed':
      return boxedLetter(text, allowed) ?? boxedOptionText(text, task.options, allowed);
    case 'lenient_answer_colon':
      return answerColonLetter(text, task.options, allowed);
    case 'lenient_answer_colon_md':
      return markdownAnswerColonLetter(text, allowed);
  }
}

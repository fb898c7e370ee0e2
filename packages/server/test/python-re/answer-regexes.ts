// Answer-reading regex lists of the kind multilingual MCQA sets ship in
// `template_metadata.output_regex`, and answers to read with them: an answer prefix in many
// languages, then a Latin, Arabic, Bengali or full-width letter; a greedy "last standalone letter"
// fallback; and two-choice (A/B) patterns for PIQA-style sets. Written here from the shape of the
// original's benchmark data (MMMLU, Global-PIQA).

const LETTER = '([A-D]|[أ-د]|[অ]|[ব]|[ড]|[ঢ]|[Ａ]|[Ｂ]|[Ｃ]|[Ｄ])';

const ANSWER_PREFIXES = [
  'Answer\\s*:',
  'Answer\\s*:\u200b\u200b',
  'উত্তর\\s*:',
  'उत्तर\\s*:',
  'উত্তরঃ',
  'Antwort\\s*:',
  '답변\\s*:',
  '정답\\s*:',
  '답\\s*:',
  '答案\\s*：',
  '答案\\s*:',
  '答\\s*：',
  '答复\\s*：',
  'الإجابة:',
  'الجواب:',
  'الإجابة النهائية:',
  'الإجابة الصحيحة هي:',
  'Respuesta\\s*:',
  'Risposta\\s*:',
  '答え\\s*:',
  '答え\\s*：',
  '回答\\s*：',
  'Jawaban\\s*:',
  'Réponse\\s*:',
  'Resposta\\s*:',
  'Jibu\\s*:',
  'Ìdáhùn\\s*:',
  'Àṣàyàn\\s*:',
];

/** MMMLU-style: one pattern per answer prefix, then the greedy fallback. */
export const MULTILINGUAL_MCQA_REGEXES: string[] = [...ANSWER_PREFIXES.map((prefix) => `(?i)${prefix}[ \t]*${LETTER}`), `[\\s\\S]*\\b\\(?\\s*${LETTER}\\s*\\)?\\.?\\b`];

/** Global-PIQA-style: two choices. */
export const TWO_CHOICE_REGEXES: string[] = [
  '(?i)[Tt]he (?:[Bb]est [Aa]nswer|[Ff]inal [Aa]nswer|[Aa]nswer)[^A-B]*([A-B])',
  '(?i)[Aa]nswer\\s*:[^A-B]*([A-B])',
  '(?i)\\\\boxed\\{([A-B])\\}',
  '[\\s\\S]*\\b\\(?\\s*([A-B])\\s*\\)?\\.?\\b',
];

const LEADS = [
  'Answer: ',
  'Answer:',
  'answer : ',
  'The answer is ',
  'The final answer is ',
  'The best answer is (',
  'Final Answer: **',
  'Antwort: ',
  'Réponse : ',
  'Respuesta: ',
  'Jawaban: ',
  'Jibu: ',
  'Ìdáhùn: ',
  'उत्तर: ',
  'উত্তরঃ ',
  'الإجابة: ',
  'الإجابة النهائية: ',
  'الجواب:',
  '答案：',
  '答案是',
  '答：',
  '答えは',
  '答え：',
  '回答：',
  '정답: ',
  '정답은 ',
  '답: ',
  'คำตอบคือ',
  'คำตอบ: ',
  '\\boxed{',
  '(',
  '',
];
const LETTERS = ['A', 'B', 'C', 'D', 'a', 'b', 'E', 'أ', 'ب', 'ج', 'د', 'ه', 'অ', 'ব', 'ড', 'ঢ', 'Ａ', 'Ｂ', 'Ｃ', 'Ｄ', 'ａ', 'Ａ)'];
const TAILS = ['', '.', '。', ')', '}', ' ', '\n', 'です', '입니다', '입니다.', ' because it fits.', '।', '؟', '\u200b', '\ufeff', '\r\n', '\u2028', ' (B is wrong)', 'B', 'ค่ะ'];
const REASONING = [
  '',
  'Let me think step by step.\n',
  'Option A is wrong, so ',
  'ลองคิดดู ',
  'まず考えます。',
  '먼저 생각해 봅시다. ',
  'لنفكر خطوة بخطوة. ',
  'Schritt für Schritt:\n',
  'Between (A) and (B), ',
];

/** Model answers: reasoning, an answer lead in some language, a letter in some script, and what may follow. */
export function answerTexts(random: () => number, count: number): string[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(pick(REASONING) + pick(LEADS) + pick(LETTERS) + pick(TAILS) + (random() < 0.2 ? pick(LEADS) + pick(LETTERS) : ''));
  return out;
}

/**
 * The judge's prompt template: a text file with the original's placeholders `{question}`,
 * `{expected_answer}` and `{generated_answer}`, filled as Python's `str.format` fills them (`{{`
 * and `}}` are literal braces). Anything else `str.format` would refuse or treat specially (an
 * unknown name, a conversion, a format spec, a lone brace) is refused when the server starts,
 * not at the first verify.
 * @module
 */
import { readFileSync } from 'node:fs';
import { pyStrip } from '../mcqa/py-text.js';

const FIELDS = new Set(['question', 'expected_answer', 'generated_answer']);

/** The values of one prompt. */
export type PromptFields = Record<'question' | 'expected_answer' | 'generated_answer', string>;

type Piece = string | { field: keyof PromptFields };

/** A parsed template. */
export interface PromptTemplate {
  fill(fields: PromptFields): string;
}

/** Parses `text` (the file's content, stripped as the original strips it); throws naming what is wrong. */
export function parsePromptTemplate(text: string, source: string): PromptTemplate {
  const pieces: Piece[] = [];
  let literal = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if ((c === '{' || c === '}') && text[i + 1] === c) {
      literal += c;
      i++;
      continue;
    }
    if (c === '}') throw new Error(`${source}: a single '}' at character ${i} (write '}}' for a literal brace).`);
    if (c !== '{') {
      literal += c;
      continue;
    }
    const end = text.indexOf('}', i);
    const name = end < 0 ? '' : text.slice(i + 1, end);
    if (!FIELDS.has(name))
      throw new Error(
        `${source}: placeholder '${end < 0 ? text.slice(i, i + 20) : `{${name}}`}' at character ${i} is not one of {question}, {expected_answer}, {generated_answer} (write '{{' for a literal brace).`,
      );
    pieces.push(literal, { field: name as keyof PromptFields });
    literal = '';
    i = end;
  }
  pieces.push(literal);
  return { fill: (fields) => pieces.map((p) => (typeof p === 'string' ? p : fields[p.field])).join('') };
}

/** Reads and parses the template file at `path`. */
export function readPromptTemplate(path: string): PromptTemplate {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`judge_prompt_template_fpath: cannot read ${path} (${(error as Error).message}).`, { cause: error });
  }
  return parsePromptTemplate(pyStrip(text), path);
}

// Runs re_oracle.py once per request (one python3 process, the cases batched through stdin), and
// the same cases through the translation, in the same answer shape.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compilePythonRegex, PythonRegexError, UnsupportedPythonRegexError } from '../../src/python-re/index.js';

export interface MatchCase {
  pattern: string;
  flags: number;
  texts: string[];
}

/** Python's error message, or for each text each match's group spans in code points; `refused` for an untranslatable pattern (ours only). */
export type MatchAnswer = { error: string; class: string } | { matches: number[][][][] } | { refused: string };

const ORACLE = fileURLToPath(new URL('./re_oracle.py', import.meta.url));

/** CPython's answers for `request` (`{kind: 'match', cases}` or `{kind: 'unicode'}`). */
export function askCPython<T>(request: object): T {
  const out = execFileSync('python3', [ORACLE], { input: JSON.stringify(request), maxBuffer: 1 << 30 });
  return JSON.parse(out.toString('utf8')) as T;
}

/** The translation's answer for one case. */
export function answerOf(test: MatchCase): MatchAnswer {
  let compiled;
  try {
    compiled = compilePythonRegex(test.pattern, test.flags);
  } catch (error) {
    if (error instanceof UnsupportedPythonRegexError) return { refused: error.construct };
    if (error instanceof PythonRegexError) return { error: error.message, class: error.pythonClass };
    throw error;
  }
  return {
    matches: test.texts.map((text) => {
      const toCodePoint = codePointOffsets(text);
      return [...compiled.finditer(text)].map((m) => {
        const spans: number[][] = [];
        for (let g = 0; g <= compiled.groups; g++) {
          const [start, end] = m.span(g);
          spans.push(start === -1 ? [-1, -1] : [toCodePoint[start]!, toCodePoint[end]!]);
        }
        return spans;
      });
    }),
  };
}

/** For each UTF-16 index of `text` (and its end), the code-point index Python would report. */
function codePointOffsets(text: string): number[] {
  const out: number[] = [];
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    out.push(cp);
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdbff || i + 1 === text.length) cp++;
  }
  out.push(cp);
  return out;
}

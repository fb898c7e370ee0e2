/**
 * Reading a Python pattern as CPython's parser does, token by token (one character, or a
 * backslash and the character after it), with positions in code points as Python reports them.
 * @module
 */
import { PythonRegexError } from './errors.js';

/** Length in code points, as Python counts. */
export function cpLen(s: string): number {
  return [...s].length;
}

/** Reads a pattern token by token: one character, or a backslash and the character after it. */
export class Tokenizer {
  private readonly chars: string[];
  private index = 0;
  next: string | null = null;

  constructor(readonly pattern: string) {
    this.chars = [...pattern];
    this.advance();
  }

  private advance(): void {
    let index = this.index;
    let ch = this.chars[index];
    if (ch === undefined) {
      this.next = null;
      return;
    }
    if (ch === '\\') {
      index++;
      const escaped = this.chars[index];
      if (escaped === undefined) throw new PythonRegexError('bad escape (end of pattern)', this.pattern, this.chars.length - 1);
      ch += escaped;
    }
    this.index = index + 1;
    this.next = ch;
  }

  match(ch: string): boolean {
    if (ch === this.next) {
      this.advance();
      return true;
    }
    return false;
  }

  get(): string | null {
    const token = this.next;
    this.advance();
    return token;
  }

  getWhile(n: number, allowed: ReadonlySet<string>): string {
    let result = '';
    for (let i = 0; i < n; i++) {
      const c = this.next;
      if (c === null || !allowed.has(c)) break;
      result += c;
      this.advance();
    }
    return result;
  }

  getUntil(terminator: string, name: string): string {
    let result = '';
    for (;;) {
      const c = this.next;
      this.advance();
      if (c === null) {
        if (result === '') throw this.error(`missing ${name}`);
        throw this.error(`missing ${terminator}, unterminated name`, cpLen(result));
      }
      if (c === terminator) {
        if (result === '') throw this.error(`missing ${name}`, 1);
        break;
      }
      result += c;
    }
    return result;
  }

  /** Position (in code points) of the token `next`. */
  tell(): number {
    return this.index - (this.next === null ? 0 : [...this.next].length);
  }

  seek(index: number): void {
    this.index = index;
    this.advance();
  }

  error(msg: string, offset = 0): PythonRegexError {
    return new PythonRegexError(msg, this.pattern, this.tell() - offset);
  }
}

/** Python's `repr()` of a short string, as its error messages quote names. */
export function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return quote + out + quote;
}

/**
 * Spelling a parsed Python pattern as JavaScript `v`-flag RegExp source that matches exactly what
 * Python matches: Python's `\w` `\d` `\s` `\b`, its IGNORECASE equivalences (every letter becomes
 * the class of characters Python accepts), its `.` `^` `$` line rules, scoped flags, atomic
 * groups and possessive repeats (a lookahead that captures, then a backreference to it — a
 * lookahead is never backtracked into). Python's groups keep their numbers through a map, since
 * those helper groups add JavaScript groups. A construct JavaScript cannot match as Python does
 * throws {@link UnsupportedPythonRegexError}; Python's own compile-time errors come first.
 * @module
 */
import { ANY_CHAR, CodePointSet } from './code-point-set.js';
import { PythonRegexError, UnsupportedPythonRegexError } from './errors.js';
import { width } from './width.js';
import { caselessClass, caselessLiteral, categoryClass } from './python-unicode.js';
import { FLAG, MAXREPEAT } from './syntax.js';
import type { AnchorKind, Node, ParsedPattern } from './syntax.js';

/** JavaScript source for a parsed pattern, and the JavaScript group number of each Python group. */
export interface EmittedPattern {
  source: string;
  /** Index = Python group number (0 = whole match). */
  groupIndex: number[];
}

/**
 * Emits `parsed`; `reserved` JavaScript groups come before the pattern's own (for a wrapper that
 * captures first).
 */
export function emitPattern(parsed: ParsedPattern, reserved = 0): EmittedPattern {
  checkPythonCompile(parsed.nodes, parsed);
  const emitter = new Emitter(parsed, reserved);
  const source = emitter.sequence(parsed.nodes, parsed.flags);
  return { source, groupIndex: emitter.groupIndex };
}

/** Python's compile-time check: every lookbehind has a fixed width. */
function checkPythonCompile(nodes: readonly Node[], parsed: ParsedPattern): void {
  for (const node of nodes) {
    if (node.type === 'look' && node.behind) {
      const [lo, hi] = width(node.body, parsed);
      if (lo !== hi) throw new PythonRegexError('look-behind requires fixed-width pattern', parsed.pattern, null);
    }
    for (const child of children(node)) checkPythonCompile(child, parsed);
  }
}

function children(node: Node): Node[][] {
  switch (node.type) {
    case 'group':
    case 'atomic':
    case 'repeat':
    case 'look':
      return [node.body];
    case 'branch':
      return node.alternatives;
    case 'conditional':
      return node.no === null ? [node.yes] : [node.yes, node.no];
    default:
      return [];
  }
}

class Emitter {
  readonly groupIndex: number[] = [0];
  private next: number;
  /** Python groups sure to have matched wherever the rest of the pattern runs. */
  private readonly alwaysSet = new Set<number>();

  constructor(
    private readonly parsed: ParsedPattern,
    reserved: number,
  ) {
    this.next = reserved + 1;
    collectAlwaysSet(parsed.nodes, false, this.alwaysSet);
    if ((parsed.flags & FLAG.TEMPLATE) !== 0) this.unsupported('the TEMPLATE flag');
  }

  private unsupported(construct: string): never {
    throw new UnsupportedPythonRegexError(construct, this.parsed.pattern);
  }

  sequence(nodes: readonly Node[], flags: number): string {
    return nodes.map((node) => this.node(node, flags)).join('');
  }

  private node(node: Node, flags: number): string {
    const ascii = (flags & FLAG.ASCII) !== 0;
    const ignoreCase = (flags & FLAG.IGNORECASE) !== 0;
    switch (node.type) {
      case 'char': {
        if (!ignoreCase) return literal(node.cp);
        const set = caselessLiteral(node.cp, ascii);
        return set.ranges.length === 1 && set.ranges[0]![0] === set.ranges[0]![1] ? literal(node.cp) : set.toClass();
      }
      case 'class': {
        let members = CodePointSet.of(node.items.flatMap((item) => (item.type === 'char' ? [[item.cp, item.cp] as const] : item.type === 'range' ? [[item.lo, item.hi] as const] : [])));
        if (ignoreCase) members = caselessClass(members, ascii);
        const categories = node.items.flatMap((item) => (item.type === 'category' ? [categoryClass(item.name, ascii, item.negate)] : []));
        const body = (members.isEmpty ? '' : members.toClass()) + categories.join('');
        if (body === '') return node.negate ? ANY_CHAR : '[]';
        return `[${node.negate ? '^' : ''}${body}]`;
      }
      case 'any':
        return (flags & FLAG.DOTALL) !== 0 ? ANY_CHAR : '[^\\n]';
      case 'anchor':
        return anchor(node.kind, flags);
      case 'category':
        return categoryClass(node.name, ascii, node.negate);
      case 'group': {
        const inner = (flags | node.addFlags) & ~node.delFlags;
        if (node.group === null) return `(?:${this.sequence(node.body, inner)})`;
        this.groupIndex[node.group] = this.next++;
        return `(${this.sequence(node.body, inner)})`;
      }
      case 'atomic':
        return this.atomic(this.sequence.bind(this, node.body, flags));
      case 'branch':
        return `(?:${node.alternatives.map((alternative) => this.sequence(alternative, flags)).join('|')})`;
      case 'repeat': {
        if (node.max > 1 && hasSkippableGroup(node.body, false)) {
          this.unsupported('a repeated group that an iteration can skip (Python keeps the capture of an earlier iteration, JavaScript clears it)');
        }
        if (node.max > node.min && width(node.body, this.parsed)[0] === 0 && (hasGroup(node.body) || !emptyIsLastChoice(node.body, this.parsed))) {
          this.unsupported('a repeat whose body can match empty, first or with a group (Python takes such an iteration, JavaScript rejects it)');
        }
        const quantifier =
          (node.min === 0 && node.max === MAXREPEAT
            ? '*'
            : node.min === 1 && node.max === MAXREPEAT
              ? '+'
              : node.min === 0 && node.max === 1
                ? '?'
                : `{${node.min},${node.max === MAXREPEAT ? '' : node.max}}`) + (node.mode === 'lazy' ? '?' : '');
        const repeated = () => `(?:${this.sequence(node.body, flags)})${quantifier}`;
        return node.mode === 'possessive' ? this.atomic(repeated) : repeated();
      }
      case 'backref': {
        if (ignoreCase) this.unsupported('a backreference under IGNORECASE');
        if (!this.alwaysSet.has(node.group)) this.unsupported('a backreference to a group that may not have matched');
        return `(?:\\${this.groupIndex[node.group]})`;
      }
      case 'look':
        return `(?${node.behind ? '<' : ''}${node.negate ? '!' : '='}${this.sequence(node.body, flags)})`;
      case 'conditional':
        return this.unsupported('a conditional group (?(…)…)');
    }
  }

  /** `(?>…)`: a lookahead (never backtracked into) captures the match, then a backreference consumes it. */
  private atomic(inner: () => string): string {
    const index = this.next++;
    return `(?=(${inner()}))(?:\\${index})`;
  }
}

function anchor(kind: AnchorKind, flags: number): string {
  const word = categoryClass('word', (flags & FLAG.ASCII) !== 0, false);
  const multiline = (flags & FLAG.MULTILINE) !== 0;
  switch (kind) {
    case 'beginning':
      return multiline ? '(?<![^\\n])' : `(?<!${ANY_CHAR})`;
    case 'end':
      return multiline ? `(?=\\n|(?!${ANY_CHAR}))` : `(?=\\n?(?!${ANY_CHAR}))`;
    case 'beginning_string':
      return `(?<!${ANY_CHAR})`;
    case 'end_string':
      return `(?!${ANY_CHAR})`;
    case 'boundary':
      return `(?:(?<=${word})(?!${word})|(?<!${word})(?=${word}))`;
    case 'non_boundary':
      // Python finds no \B in an empty string.
      return `(?:(?<=${word})(?=${word})|(?<!${word})(?!${word})(?:(?<=${ANY_CHAR})|(?=${ANY_CHAR})))`;
  }
}

/** A literal character, spelled so that no `v`-flag syntax can misread it. */
function literal(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCodePoint(cp);
  return cp <= 0xffff ? `\\u${cp.toString(16).padStart(4, '0')}` : `\\u{${cp.toString(16)}}`;
}

/** True when `nodes` hold a capture group. */
function hasGroup(nodes: readonly Node[]): boolean {
  return nodes.some((node) => (node.type === 'group' && node.group !== null) || children(node).some(hasGroup));
}

/**
 * True when `nodes` match the empty string only as their last choice, after every non-empty way:
 * then a repeat's iteration that JavaScript rejects for being empty leaves the match where Python's
 * accepted empty iteration leaves it.
 */
function emptyIsLastChoice(nodes: readonly Node[], parsed: ParsedPattern): boolean {
  return nodes.every((node) => {
    switch (node.type) {
      case 'group':
        return emptyIsLastChoice(node.body, parsed);
      case 'branch':
        return node.alternatives.every((alternative, i) => (i === node.alternatives.length - 1 ? emptyIsLastChoice(alternative, parsed) : width(alternative, parsed)[0] > 0));
      case 'repeat':
        if (width(node.body, parsed)[0] > 0) return node.mode !== 'lazy' || node.min > 0;
        return node.mode !== 'lazy' && emptyIsLastChoice(node.body, parsed);
      case 'conditional':
        return false;
      default:
        return true;
    }
  });
}

/** True when some capture group in `nodes` may not take part in a match of `nodes`. */
function hasSkippableGroup(nodes: readonly Node[], optional: boolean): boolean {
  for (const node of nodes) {
    switch (node.type) {
      case 'group':
        if (node.group !== null && optional) return true;
        if (hasSkippableGroup(node.body, optional)) return true;
        break;
      case 'atomic':
        if (hasSkippableGroup(node.body, optional)) return true;
        break;
      case 'repeat':
        if (hasSkippableGroup(node.body, optional || node.min === 0)) return true;
        break;
      case 'branch':
        for (const alternative of node.alternatives) if (hasSkippableGroup(alternative, true)) return true;
        break;
      case 'look':
        if (!node.negate && hasSkippableGroup(node.body, optional)) return true;
        break;
      case 'conditional':
        return true;
      default:
        break;
    }
  }
  return false;
}

/** Adds to `out` every group that is set whenever the pattern matches (not inside an optional part). */
function collectAlwaysSet(nodes: readonly Node[], optional: boolean, out: Set<number>): void {
  for (const node of nodes) {
    switch (node.type) {
      case 'group':
        if (node.group !== null && !optional) out.add(node.group);
        collectAlwaysSet(node.body, optional, out);
        break;
      case 'atomic':
        collectAlwaysSet(node.body, optional, out);
        break;
      case 'repeat':
        collectAlwaysSet(node.body, optional || node.min === 0, out);
        break;
      case 'look':
        if (!node.negate) collectAlwaysSet(node.body, optional, out);
        break;
      default:
        break;
    }
  }
}

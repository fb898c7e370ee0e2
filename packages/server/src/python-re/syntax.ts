/**
 * The tree a Python pattern parses to, and Python's flag bits (the values of `re.I`, `re.M`, …).
 * @module
 */
import type { CategoryName } from './python-unicode.js';

export const FLAG = {
  TEMPLATE: 1,
  IGNORECASE: 2,
  LOCALE: 4,
  MULTILINE: 8,
  DOTALL: 16,
  UNICODE: 32,
  VERBOSE: 64,
  ASCII: 256,
} as const;

/** The inline flag letters and their bits. */
export const FLAG_LETTERS: Readonly<Record<string, number>> = {
  i: FLAG.IGNORECASE,
  L: FLAG.LOCALE,
  m: FLAG.MULTILINE,
  s: FLAG.DOTALL,
  x: FLAG.VERBOSE,
  a: FLAG.ASCII,
  t: FLAG.TEMPLATE,
  u: FLAG.UNICODE,
};
export const TYPE_FLAGS = FLAG.ASCII | FLAG.LOCALE | FLAG.UNICODE;
export const GLOBAL_FLAGS = FLAG.TEMPLATE | 128; // 128: re.DEBUG

/** Python's "no upper bound" for a repeat. */
export const MAXREPEAT = 4294967295;

/** One member of a character class. */
export type ClassItem = { type: 'char'; cp: number } | { type: 'range'; lo: number; hi: number } | { type: 'category'; name: CategoryName; negate: boolean };

export type AnchorKind = 'beginning' | 'end' | 'beginning_string' | 'end_string' | 'boundary' | 'non_boundary';

/** A node of the parsed pattern; a sequence is `Node[]`. */
export type Node =
  | { type: 'char'; cp: number }
  | { type: 'class'; negate: boolean; items: ClassItem[] }
  | { type: 'any' }
  | { type: 'anchor'; kind: AnchorKind }
  | { type: 'category'; name: CategoryName; negate: boolean }
  | { type: 'group'; group: number | null; addFlags: number; delFlags: number; body: Node[] }
  | { type: 'atomic'; body: Node[] }
  | { type: 'branch'; alternatives: Node[][] }
  | { type: 'repeat'; min: number; max: number; mode: 'greedy' | 'lazy' | 'possessive'; body: Node[] }
  | { type: 'backref'; group: number }
  | { type: 'look'; behind: boolean; negate: boolean; body: Node[] }
  | { type: 'conditional'; group: number; yes: Node[]; no: Node[] | null };

/** A parsed pattern: its tree, its global flags, its group count (group 0 included) and names. */
export interface ParsedPattern {
  pattern: string;
  nodes: Node[];
  flags: number;
  groups: number;
  groupNames: Map<string, number>;
  /** Each group's [min, max] width, for fixed-width checks; index = group number. */
  groupWidths: Array<[number, number] | null>;
}

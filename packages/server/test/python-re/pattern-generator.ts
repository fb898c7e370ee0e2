// Random Python patterns and texts for the differential test: the constructs Python's `re` has
// (classes, categories, anchors, groups of every kind, lazy/possessive repeats, inline and scoped
// flags, verbose mode, backreferences), characters where JavaScript and Python disagree (case
// folds, Unicode digits and letters, marks, line separators, U+FEFF, astral letters), and a share
// of invalid patterns so Python's errors are compared too. Seeded, so every run tests the same cases.

/** A seeded PRNG (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Characters texts are made of, each pool a kind of trouble. */
export const CHAR_POOLS: Record<string, string[]> = {
  ascii: [...'abcABCkKsSiIxyz019 _.,:;!?()-'],
  caseFolds: [...'ſİıKkSsµμΣσςßẞǅǆǄﬅﬆᲀвϐβθϑÅåΩωǰ'],
  scripts: [...'أبجدهअবডঢउत्तर答案是えはคำตอบ정답은입니다ＡＢＣＤａ'],
  digits: [...'٣३５²Ⅻ½০七'],
  marks: ['\u0301', '\u093f', '\u200d', '\u0e31', '\u0670'],
  lineBreaks: ['\n', '\r', '\r\n', '\u2028', '\u2029', '\x85', '\x0b', '\x0c', '\x1c', '\x1f'],
  spaces: ['\t', ' ', '\xa0', '\u3000', '\ufeff', '\u200b', '\u1680', '\u202f'],
  astral: ['😀', '𝐀', '𐐀', '𐐨', '𝟘'],
};
const ALL_CHARS = Object.values(CHAR_POOLS).flat();

const CLASSES = [
  '[abc]',
  '[^ab]',
  '[a-z]',
  '[A-Z]',
  '[A-D]',
  '[\\w-]',
  '[\\s\\S]',
  '[^\\W\\d]',
  '[أ-د]',
  '[Ａ-Ｄ]',
  '[]a]',
  '[^]a]',
  '[\\d.]',
  '[k]',
  '[K]',
  '[ſ]',
  '[ß]',
  '[İ]',
  '[Α-Ω]',
  '[^\\s]',
  '[\\b]',
  '[.*+]',
  '[-a]',
  '[a-]',
  '[\\x41-\\x43]',
  '[\\u0600-\\u06ff]',
  '[^\\x00-\\x7f]',
  '[\\U0001d400-\\U0001d433]',
  '[\\u00e0-\\u00ff]',
  '[\\w&&]',
];
const ESCAPES = ['\\w', '\\W', '\\d', '\\D', '\\s', '\\S', '.', '\\.', '\\-', '\\n', '\\t', '\\x41', '\\u00e9', '\\U0001F600', '\\101', '\\0', '\\\\', '\\(', '\\$'];
const ANCHORS = ['\\b', '\\B', '^', '$', '\\A', '\\Z'];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{1,3}', '{,2}', '{2,}', '*?', '+?', '??', '{1,2}?', '*+', '++', '?+', '{1,2}+', '{', '{x}'];
const FLAG_PREFIXES = ['', '', '', '(?i)', '(?m)', '(?s)', '(?x)', '(?a)', '(?ms)', '(?ix)', '(?u)', '(?ai)'];
export const INVALID_PATTERNS = [
  '\\p{L}',
  '(?<=a+)b',
  'a**',
  '(?P<1>a)',
  '[z-a]',
  '(?',
  '(ab',
  'ab)',
  'a\\',
  '{1,2}',
  '*a',
  'a{3,1}',
  '(?P=nope)',
  '\\9',
  '(?i',
  'a(?i)b',
  '\\x4',
  '\\u12',
  '[\\A]',
  '(?<a>x)',
  '(?#comment',
  '(?P<n>a)(?P<n>b)',
  '[a',
  '(?<=a|bc)d',
  '(?z)',
  '(?-i)',
  '(?i-i:a)',
  '(?a-u:a)',
  '\\400',
  '[\\d-z]',
  '(?<!(a)\\1)',
  '(a)\\2',
  '(?P<a-b>x)',
  '\\q',
  '(?L)a',
  '(?au)a',
  '(?a)(?u)a',
  'a{4294967296}',
  'a{1,99999999999}',
  '(?x)a{1, 2}',
  'x{1,2',
  '(?<=\\b)a',
  '(a)(?(1)b|c)',
  '\\N{LATIN SMALL LETTER A}',
  '(?t)a',
];

/** One random pattern, built from `depth` levels of nesting. */
export function randomPattern(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  let groups = 0;
  const names: string[] = [];
  const literal = (): string => {
    const ch = pick(ALL_CHARS);
    return /^[.\\[\]{}()*+?^$|#\s]$/.test(ch) ? `\\${ch}` : ch;
  };
  const atom = (depth: number): string => {
    const r = random();
    if (r < 0.3) return literal();
    if (r < 0.42) return pick(CLASSES);
    if (r < 0.54) return pick(ESCAPES);
    if (r < 0.6) return pick(ANCHORS);
    if (depth >= 2) return literal();
    const inner = (): string => sequence(depth + 1, 1 + Math.floor(random() * 3));
    const g = random();
    if (g < 0.2) {
      groups++;
      return `(${inner()})`;
    }
    if (g < 0.3) {
      const name = `n${names.length}`;
      names.push(name);
      groups++;
      return `(?P<${name}>${inner()})`;
    }
    if (g < 0.38) return `(?:${inner()}|${inner()})`;
    if (g < 0.45) return `(?>${inner()})`;
    if (g < 0.52) return `(?=${inner()})`;
    if (g < 0.58) return `(?!${inner()})`;
    if (g < 0.64) return `(?<=${pick(['a', 'ab', '\\w', '[ab]c', 'A|B', '\\d\\s', 'أ', '\\b'])})`;
    if (g < 0.68) return `(?<!${pick(['a', '\\w\\w', 'x|y', '.'])})`;
    if (g < 0.76) return `(?${pick(['i', '-i', 's', 'm', 'x', 'a', 'i-s', 'ms'])}:${inner()})`;
    if (g < 0.82 && groups > 0) return random() < 0.5 || names.length === 0 ? `\\${1 + Math.floor(random() * groups)}` : `(?P=${pick(names)})`;
    if (g < 0.86) return `(?#note)`;
    if (g < 0.9) return ` ${literal()} # spaced\n`;
    return `(${inner()}|)`;
  };
  const sequence = (depth: number, length: number): string => {
    let out = '';
    for (let i = 0; i < length; i++) {
      let item = atom(depth);
      if (random() < 0.3) item += pick(QUANTIFIERS);
      out += item;
    }
    if (random() < 0.1) out += `|${atom(depth)}`;
    return out;
  };
  if (random() < 0.06) return pick(INVALID_PATTERNS);
  return pick(FLAG_PREFIXES) + sequence(0, 1 + Math.floor(random() * 4));
}

/** A random text of up to `maxLength` characters from the pools. */
export function randomText(random: () => number, maxLength: number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const pools = Object.values(CHAR_POOLS);
  const favourite = pick(pools);
  let out = '';
  const length = Math.floor(random() * (maxLength + 1));
  for (let i = 0; i < length; i++) out += random() < 0.5 ? pick(favourite) : pick(ALL_CHARS);
  return out;
}

/** Python's flag values: re.I, re.M, re.S, re.X, re.A and some combinations. */
export const FLAG_CHOICES = [0, 0, 0, 2, 8, 16, 2 | 8, 2 | 16, 256, 2 | 256, 64];

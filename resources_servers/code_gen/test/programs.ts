/**
 * The programs code_gen's tests run, through the server and through our Python reference: for each
 * example problem a right answer, a wrong one and one that crashes; two that loop; replies whose
 * fences or think tags matter; and call-based comparisons.
 * @module
 */

/** LiveCodeBench unit tests. */
export interface UnitTests {
  inputs: string[];
  outputs: string[];
  fn_name: string | null;
}

/** One reply to grade: its text, whether its reasoning misplaces think tags, the tests. */
export interface ProgramCase {
  label: string;
  text: string;
  violation: boolean;
  unit_tests: UnitTests;
}

const fenced = (code: string) => `Here is my solution.\n\n\`\`\`python\n${code}\n\`\`\`\n`;

/** Right and wrong programs per example problem (in `data/example.jsonl` order). */
const SOLUTIONS: Array<{ right: string; wrong: string }> = [
  { right: 'n = int(input())\nprint(sum(map(int, input().split())))', wrong: 'n = int(input())\nprint(sum(map(int, input().split())) + 1)' },
  { right: 'print(input()[::-1])', wrong: 'print(input())' },
  {
    right: 't = int(input())\nfor _ in range(t):\n    a, b = map(int, input().split())\n    print(gcd(a, b))',
    wrong: 't = int(input())\nfor _ in range(t):\n    a, b = map(int, input().split())\n    print(min(a, b))',
  },
  {
    right:
      "def main():\n    n = int(input())\n    a, b, out = 0, 1, []\n    for _ in range(n):\n        out.append(a)\n        a, b = b, a + b\n    print(' '.join(map(str, out)))\n\nif __name__ == '__main__':\n    main()",
    wrong: 'n = int(input())\nprint(*range(n))',
  },
  {
    right:
      'class Solution:\n    def maxProfit(self, prices: List[int]) -> int:\n        best, low = 0, float("inf")\n        for p in prices:\n            low = min(low, p)\n            best = max(best, p - low)\n        return best',
    wrong: 'class Solution:\n    def maxProfit(self, prices):\n        return max(prices) - min(prices)',
  },
];

/** Every case over the example problems' tests. */
export function programCases(problems: UnitTests[]): ProgramCase[] {
  const cases: ProgramCase[] = [];
  problems.forEach((unit_tests, i) => {
    const { right, wrong } = SOLUTIONS[i]!;
    const add = (label: string, text: string, violation = false) => cases.push({ label: `problem ${i}: ${label}`, text, violation, unit_tests });
    const call = unit_tests.fn_name !== null;
    add('right', fenced(right));
    add('wrong', fenced(wrong));
    add('crash', fenced(call ? 'class Solution:\n    def maxProfit(self, prices):\n        return prices[100]' : 'raise ValueError("no")'));
    // a loop costs a time limit on both sides: one stdin and one call-based case are enough
    if (i === 0 || call) add('loops', fenced(call ? 'class Solution:\n    def maxProfit(self, prices):\n        while True:\n            pass' : 'while True:\n    pass'));
    add('last of two blocks counts', `${fenced(wrong)}\nOn second thought:\n${fenced(right)}`);
    add('no fence', right);
    add('empty reply', '');
    add('right, think tag in the answer', `<think>hmm</think>\n${fenced(right)}`, true);
  });
  const floats: UnitTests = { inputs: ['1\n3', '2\n2'], outputs: ['0.3333333', '1.0'], fn_name: 'ratio' };
  cases.push(
    { label: 'call-based tuple equals list', text: fenced('def pair(a, b):\n    return (b, a)'), violation: false, unit_tests: { inputs: ['1\n2'], outputs: ['[2, 1]'], fn_name: 'pair' } },
    { label: 'call-based float within 1e-5', text: fenced('def ratio(a, b):\n    return a / b'), violation: false, unit_tests: floats },
    { label: 'call-based missing function', text: fenced('def other(a, b):\n    return a'), violation: false, unit_tests: floats },
    { label: 'stdio decimals compare by value', text: fenced('print("1.50 2")'), violation: false, unit_tests: { inputs: [''], outputs: ['1.5 2.0'], fn_name: null } },
    { label: 'stdio wrong line count', text: fenced('print(1)\nprint(2)'), violation: false, unit_tests: { inputs: [''], outputs: ['1'], fn_name: null } },
  );
  return cases;
}

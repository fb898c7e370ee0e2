/**
 * The simulated policy, independent of wire format: call the first offered tool until a tool
 * output is present, then answer in text; asked to judge, give a parsable verdict; asked for a
 * Python code block, give a program that runs.
 * @module
 */
import { argumentsFor, salientWord } from './schema-arguments.js';
import type { JsonSchema } from './schema-arguments.js';

/** What the policy sees of a conversation. */
export interface PolicyInput {
  /** Text of the last user message ('' when none). */
  lastUserText: string;
  /** The last tool output after the last user message, if any. */
  toolOutput: string | undefined;
  /** Function tools offered, in order. */
  tools: ReadonlyArray<{ name: string; parameters?: JsonSchema }>;
  /** A tool the caller forces (`tool_choice` naming a function), or `'none'` to forbid tools. */
  toolChoice?: string;
}

/** The policy's next move. */
export type PolicyDecision = { kind: 'tool_call'; name: string; arguments: Record<string, unknown> } | { kind: 'text'; text: string };

const MAX_QUOTED = 200;

/** The verdict labels of the original's equivalence judge prompts. */
const JUDGE_LABELS = ['[[A=B]]', '[[A!=B]]'] as const;

/** The simulator's answer to a request for Python code. */
export const SIMULATED_PROGRAM = 'A simulated program: it prints its input back.\n\n```python\nimport sys\n\nprint(sys.stdin.read().strip())\n```';

/** Decides the next output. Deterministic for a given input. */
export function decide(input: PolicyInput): PolicyDecision {
  // asked to judge (a prompt offering both verdict labels): a verdict the judge can parse; the
  // simulator compares nothing, so it never calls answers equivalent
  // asked for a Python code block (code_gen's prompts): a program that runs, so a demo shows the
  // sandbox at work; it echoes its input, which solves nothing
  if (input.toolOutput === undefined && input.lastUserText.includes('```python')) return { kind: 'text', text: SIMULATED_PROGRAM };
  if (JUDGE_LABELS.every((label) => input.lastUserText.includes(label))) return { kind: 'text', text: `A simulated judgement, comparing nothing.\n\n${JUDGE_LABELS[1]} not judged equivalent` };
  if (input.toolOutput !== undefined) {
    const quoted = input.toolOutput.length > MAX_QUOTED ? `${input.toolOutput.slice(0, MAX_QUOTED)}…` : input.toolOutput;
    return { kind: 'text', text: `Based on the tool result: ${quoted}` };
  }
  if (input.toolChoice !== 'none' && input.tools.length > 0) {
    const tool = input.tools.find((t) => t.name === input.toolChoice) ?? input.tools[0]!;
    return { kind: 'tool_call', name: tool.name, arguments: argumentsFor(tool.parameters, salientWord(input.lastUserText)) };
  }
  return { kind: 'text', text: `This is a simulated answer about ${salientWord(input.lastUserText)}.` };
}

/** A rough token count: about four characters per token, at least one. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

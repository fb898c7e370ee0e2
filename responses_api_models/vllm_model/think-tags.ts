/**
 * `<think>…</think>`: how reasoning travels inside assistant text on the Chat side.
 * @module
 */

const THINK = /<think>([\s\S]*?)<\/think>/g;

/** Wraps each non-empty text as `<think>text</think>` and concatenates them. */
export function wrapThink(texts: readonly string[]): string {
  return texts
    .filter((t) => t !== '')
    .map((t) => `<think>${t}</think>`)
    .join('');
}

/** Splits `content` into the texts of its `<think>` blocks and the content without them. */
export function splitThink(content: string): { reasoning: string[]; content: string } {
  const reasoning = [...content.matchAll(THINK)].map((m) => m[1] ?? '');
  return { reasoning, content: reasoning.length === 0 ? content : content.replace(THINK, '') };
}

/**
 * What code_gen reads from a reply, as the original does: the reply's `output_text` (every
 * `output_text` part of its messages, joined), the code of its **last** fenced block, and whether
 * it breaks the reasoning format (`<think>` tags where they do not belong).
 * @module
 */

type Item = { type?: unknown; content?: unknown; summary?: unknown };

/** The Responses API's `output_text`: the text parts of every output message, joined without separator. */
export function outputText(output: readonly unknown[]): string {
  let text = '';
  for (const item of output as Item[]) {
    if (item?.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content as Array<{ type?: unknown; text?: unknown }>) if (part?.type === 'output_text' && typeof part.text === 'string') text += part.text;
  }
  return text;
}

/** The lines between the last two lines holding a code fence (the fence lines themselves dropped); `''` with fewer than two. */
export function extractCode(text: string): string {
  const lines = text.split('\n');
  const fences = lines.flatMap((line, i) => (line.includes('```') ? [i] : []));
  if (fences.length < 2) return '';
  return lines.slice(fences.at(-2)! + 1, fences.at(-1)).join('\n');
}

/** True when the final text holds a think tag, or the reasoning summaries hold more than one opening or closing tag. */
export function hasReasoningFormatViolation(output: readonly unknown[]): boolean {
  const final = outputText(output);
  if (final.includes('<think>') || final.includes('</think>')) return true;
  let reasoning = '';
  for (const item of output as Item[]) {
    if (item?.type !== 'reasoning' || !Array.isArray(item.summary)) continue;
    for (const part of item.summary as Array<{ text?: unknown }>) if (typeof part?.text === 'string') reasoning += part.text;
  }
  return reasoning.split('<think>').length > 2 || reasoning.split('</think>').length > 2;
}

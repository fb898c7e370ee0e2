/**
 * The plain text of a message's content: a string, or the `text` of its parts joined.
 * @module
 */

/** Text of `content` (string or parts), '' when there is none. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof (part as { text?: unknown })?.text === 'string' ? (part as { text: string }).text : '')).join(' ');
}

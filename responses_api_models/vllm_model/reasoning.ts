/**
 * Reasoning across the vLLM boundary. On the way in, `<think>` blocks in assistant history are
 * moved into the `reasoning_content`/`reasoning` fields a reasoning parser expects; on the way
 * out, the fields vLLM returns are wrapped back into `<think>` at the front of `content`.
 * @module
 */
import { GymModelInputError, GymModelReplyError } from './errors.js';
import { splitThink, wrapThink } from './think-tags.js';

type Json = Record<string, unknown>;

/**
 * Strips `<think>` from assistant messages (in place). With `interleaved`, the first block is
 * sent back as `reasoning_content` and `reasoning` (vLLM ≥ 0.16 reads the latter).
 */
export function moveHistoryReasoning(messages: Json[], interleaved: boolean): void {
  messages.forEach((message, index) => {
    if (message['role'] !== 'assistant' || message['content'] == null || message['content'] === '') return;
    const content = message['content'];
    let found: string | undefined;
    if (typeof content === 'string') {
      const split = splitThink(content);
      message['content'] = split.content;
      found = split.reasoning[0];
    } else if (Array.isArray(content)) {
      for (const part of content as Json[]) {
        if (typeof part['text'] !== 'string') continue;
        const split = splitThink(part['text']);
        if (found !== undefined && split.reasoning.length > 0) {
          throw new GymModelInputError(`messages[${index}]: reasoning appears in more than one content part of one assistant message.`);
        }
        part['text'] = split.content;
        found ??= split.reasoning[0];
      }
    } else {
      throw new GymModelInputError(`messages[${index}].content: expected a string or a list of parts.`);
    }
    if (found !== undefined && interleaved) {
      message['reasoning_content'] = found;
      message['reasoning'] = found;
    }
  });
}

/**
 * Moves `reasoning_content` (or `reasoning`) of a reply message into `<think>` in front of its
 * content (in place). Without a reasoning parser configured, reasoning in the reply is a
 * mismatch between gym's config and the vLLM server, and fails.
 */
export function foldReplyReasoning(message: Json, usesReasoningParser: boolean, serverName: string): void {
  const reasoning = message['reasoning_content'] || message['reasoning'];
  if (!usesReasoningParser) {
    if (reasoning) {
      throw new GymModelReplyError(
        `Model server '${serverName}' has uses_reasoning_parser: false, but vLLM returned reasoning. Start vLLM without a reasoning parser, or set uses_reasoning_parser: true.`,
      );
    }
    return;
  }
  if (!reasoning) return;
  delete message['reasoning_content'];
  delete message['reasoning'];
  message['content'] = wrapThink([String(reasoning)]) + (typeof message['content'] === 'string' ? message['content'] : '');
}

/**
 * The Responses streaming events of a complete `Response`: what a model server sends for
 * `stream: true`. As the original, the answer is produced whole and then re-emitted; unlike its
 * minimal sequence (created, item done, completed), every item is opened, filled by deltas and
 * closed, in the order and shapes of the `openai` package's `ResponseStreamEvent`, so the
 * `openai` client's `responses.stream()` rebuilds the same response from the events alone.
 * @module
 */
import type { Response, ResponseFunctionToolCall, ResponseOutputItem, ResponseOutputMessage, ResponseReasoningItem, ResponseStreamEvent } from 'openai/resources/responses/responses';

/** A stream event before it is numbered: the builder adds `sequence_number` in emission order. */
type Unnumbered<E> = E extends unknown ? Omit<E, 'sequence_number'> : never;
type Event = Unnumbered<ResponseStreamEvent>;

/** The lifecycle event that ends a stream, by the response's `status`. */
function terminalEvent(response: Response): Event {
  if (response.status === 'failed') return { type: 'response.failed', response };
  if (response.status === 'incomplete') return { type: 'response.incomplete', response };
  return { type: 'response.completed', response };
}

/** The id the item's events name it by; an item without one (a loose server's output) gets a positional one. */
function itemIdOf(item: ResponseOutputItem, outputIndex: number): string {
  const id = (item as { id?: unknown }).id;
  return typeof id === 'string' && id !== '' ? id : `item_${outputIndex}`;
}

function messageEvents(item: ResponseOutputMessage, output_index: number, item_id: string): Event[] {
  const events: Event[] = [{ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', content: [] } }];
  (Array.isArray(item.content) ? item.content : []).forEach((part, content_index) => {
    if (part.type === 'output_text') {
      const text = typeof part.text === 'string' ? part.text : '';
      events.push(
        { type: 'response.content_part.added', output_index, item_id, content_index, part: { ...part, text: '', annotations: [] } },
        { type: 'response.output_text.delta', output_index, item_id, content_index, delta: text, logprobs: [] },
        { type: 'response.output_text.done', output_index, item_id, content_index, text, logprobs: [] },
      );
    } else if (part.type === 'refusal') {
      const refusal = typeof part.refusal === 'string' ? part.refusal : '';
      events.push(
        { type: 'response.content_part.added', output_index, item_id, content_index, part: { ...part, refusal: '' } },
        { type: 'response.refusal.delta', output_index, item_id, content_index, delta: refusal },
        { type: 'response.refusal.done', output_index, item_id, content_index, refusal },
      );
    } else {
      events.push({ type: 'response.content_part.added', output_index, item_id, content_index, part });
    }
    events.push({ type: 'response.content_part.done', output_index, item_id, content_index, part });
  });
  return events;
}

function functionCallEvents(item: ResponseFunctionToolCall, output_index: number, item_id: string): Event[] {
  const args = typeof item.arguments === 'string' ? item.arguments : '';
  return [
    { type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', arguments: '' } },
    { type: 'response.function_call_arguments.delta', output_index, item_id, delta: args },
    { type: 'response.function_call_arguments.done', output_index, item_id, name: item.name, arguments: args },
  ];
}

function reasoningEvents(item: ResponseReasoningItem, output_index: number, item_id: string): Event[] {
  const summary = Array.isArray(item.summary) ? item.summary : [];
  const content = Array.isArray(item.content) ? item.content : undefined;
  const opened: ResponseReasoningItem = { ...item, summary: [], ...(content === undefined ? {} : { content: [] }) };
  const events: Event[] = [{ type: 'response.output_item.added', output_index, item: opened }];
  summary.forEach((part, summary_index) => {
    const text = typeof part.text === 'string' ? part.text : '';
    events.push(
      { type: 'response.reasoning_summary_part.added', output_index, item_id, summary_index, part: { type: 'summary_text', text: '' } },
      { type: 'response.reasoning_summary_text.delta', output_index, item_id, summary_index, delta: text },
      { type: 'response.reasoning_summary_text.done', output_index, item_id, summary_index, text },
      { type: 'response.reasoning_summary_part.done', output_index, item_id, summary_index, part: { type: 'summary_text', text } },
    );
  });
  content?.forEach((part, content_index) => {
    const text = typeof part.text === 'string' ? part.text : '';
    events.push(
      { type: 'response.content_part.added', output_index, item_id, content_index, part: { type: 'reasoning_text', text: '' } },
      { type: 'response.reasoning_text.delta', output_index, item_id, content_index, delta: text },
      { type: 'response.reasoning_text.done', output_index, item_id, content_index, text },
      { type: 'response.content_part.done', output_index, item_id, content_index, part: { type: 'reasoning_text', text } },
    );
  });
  return events;
}

/** The events that open, fill and close one output item (`output_item.added` … `output_item.done`). */
function itemEvents(item: ResponseOutputItem, outputIndex: number): Event[] {
  const itemId = itemIdOf(item, outputIndex);
  let events: Event[];
  switch (item.type) {
    case 'message':
      events = messageEvents(item, outputIndex, itemId);
      break;
    case 'function_call':
      events = functionCallEvents(item, outputIndex, itemId);
      break;
    case 'reasoning':
      events = reasoningEvents(item, outputIndex, itemId);
      break;
    default:
      // any other item (a provider's tool call, …) is announced whole
      events = [{ type: 'response.output_item.added', output_index: outputIndex, item }];
  }
  events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  return events;
}

/**
 * Every streaming event of `response`, numbered from 0: `response.created`,
 * `response.in_progress`, then per output item `response.output_item.added`, its content parts
 * (`response.content_part.added`, `response.output_text.delta`, `response.output_text.done`,
 * `response.content_part.done`; function-call arguments and reasoning summaries likewise),
 * `response.output_item.done`, and last `response.completed` (or `response.incomplete` /
 * `response.failed`, by the response's `status`). Each text goes out as one delta.
 */
export function responseStreamEvents(response: Response): ResponseStreamEvent[] {
  const output = Array.isArray(response.output) ? response.output : [];
  const opening: Response = { ...response, status: 'in_progress', output: [] };
  const events: Event[] = [
    { type: 'response.created', response: opening },
    { type: 'response.in_progress', response: opening },
    ...output.flatMap((item, index) => itemEvents(item, index)),
    terminalEvent(response),
  ];
  return events.map((event, sequence_number) => ({ ...event, sequence_number }));
}

/**
 * The stream of a request whose response could not be produced: `response.created` and a
 * terminal `response.failed` carrying `message`, as the original sends once the stream's
 * contract (200, `text/event-stream`) was chosen.
 */
export function failedResponseEvents(init: { id: string; model: string; createdAt: number; message: string }): ResponseStreamEvent[] {
  const failed = {
    id: init.id,
    object: 'response',
    created_at: init.createdAt,
    model: init.model,
    status: 'failed',
    output: [],
    error: { code: 'server_error', message: init.message },
  } as unknown as Response;
  return [
    { type: 'response.created', sequence_number: 0, response: { ...failed, status: 'in_progress', error: null } },
    { type: 'response.failed', sequence_number: 1, response: failed },
  ];
}

/**
 * What simple_agent observes of one rollout when rollout evidence is on: its invocation (status,
 * duration, the exact model calls it made, named by the id the model server sent back), each tool
 * call (arguments, output, timing, status) and its one semantic turn. Serialised as the row's
 * `ng_agent_observations`. Built only when evidence is on.
 * @module
 */
import { MODEL_CALL_ID_HEADER } from '@gym/server';
import type { AgentObservationBundle, ModelCallRef, ToolCallObservation, TrajectoryTurn } from '@gym/server';

import type { ResponseFunctionToolCall } from 'openai/resources/responses/responses';

type Item = Record<string, unknown>;

/** Collects the observations of one agent loop. */
export class AgentObserver {
  readonly invocationId: string;
  private readonly started = performance.now();
  private readonly modelCalls: ModelCallRef[] = [];
  private readonly tools: ToolCallObservation[] = [];
  private readonly gaps: AgentObservationBundle['gaps'] = [];

  constructor(
    readonly rolloutId: string,
    private readonly modelRef: { type: string; name: string },
  ) {
    this.invocationId = `${rolloutId}:simple_agent`;
  }

  /** A model call that answered: named by the call id the model server sent, else by its response id. */
  modelCall(headers: Record<string, string | string[] | undefined>, body: unknown): void {
    const header = headers[MODEL_CALL_ID_HEADER];
    const modelCallId = typeof header === 'string' && header !== '' ? header : null;
    const id = (body as Item | null)?.['id'];
    const responseId = typeof id === 'string' ? id : null;
    if (modelCallId === null && responseId === null) {
      this.gaps.push({ code: 'model_call_reference_unavailable', invocation_id: this.invocationId, detail: `call ${this.modelCalls.length + 1}: no model call id and no response id` });
      return;
    }
    this.modelCalls.push({ model_call_id: modelCallId, model_ref: this.modelRef, response_id: responseId });
  }

  /** A model call that failed before answering: nothing names it, so its evidence is a gap. */
  modelCallFailed(error: unknown): void {
    const code = (error as { code?: unknown } | null)?.code;
    this.gaps.push({
      code: 'model_call_capture_incomplete',
      invocation_id: this.invocationId,
      detail: `call ${this.modelCalls.length + 1} failed: ${typeof code === 'string' ? code : error instanceof Error ? error.name : 'error'}`,
    });
  }

  /** Times one tool call; `finish` records it. */
  toolCall(call: ResponseFunctionToolCall): { finish(output: string, failed: boolean): void } {
    const startedAt = Date.now();
    const started = performance.now();
    return {
      finish: (output, failed) => {
        this.tools.push({
          kind: 'tool_call',
          invocation_id: this.invocationId,
          tool_call_id: call.call_id || call.id || `tool-${this.tools.length + 1}`,
          tool_name: call.name,
          started_at: startedAt / 1000,
          completed_at: Date.now() / 1000,
          duration_ms: performance.now() - started,
          timing_source: 'harness',
          status: failed ? 'failed' : 'completed',
          error_type: failed ? 'tool_error' : null,
          arguments: call['arguments'],
          output,
        });
      },
    };
  }

  /** The bundle for the row. `error` set = the loop failed. */
  bundle(options: { taskId: string; question: string | null; answer: string | null; steps: number; error?: unknown }): AgentObservationBundle {
    const failed = options.error !== undefined;
    const code = (options.error as { code?: unknown } | null)?.code;
    const turn: TrajectoryTurn = {
      invocation_id: this.invocationId,
      task_id: options.taskId,
      rollout_id: this.rolloutId,
      turn_no: 1,
      timestamp: Date.now() / 1000,
      question: options.question,
      answer: options.answer,
      resolved: null,
      step_count: options.steps,
      model_calls: [...this.modelCalls],
    };
    return {
      source: 'simple_agent',
      records: [
        {
          kind: 'agent_invocation',
          invocation_id: this.invocationId,
          status: failed ? 'failed' : 'completed',
          duration_ms: performance.now() - this.started,
          error_type: failed ? (typeof code === 'string' ? code : 'error') : null,
          model_calls: [...this.modelCalls],
        },
        ...this.tools,
      ],
      turns: [turn],
      gaps: [...this.gaps],
    };
  }
}

/** The text of the last user message of Responses `input` (a string input is the message). */
export function questionOf(input: unknown): string | null {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return null;
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i] as Item | null;
    if (item?.['role'] === 'user') return textOf(item['content']);
  }
  return null;
}

/** The text of the assistant messages of a Responses `output`. */
export function answerOf(output: unknown): string | null {
  if (!Array.isArray(output)) return null;
  const texts = (output as Item[]).filter((i) => i['type'] === 'message' && (i['role'] ?? 'assistant') === 'assistant').map((i) => textOf(i['content']));
  const joined = texts.filter((t): t is string => t !== null).join('\n');
  return joined === '' ? null : joined;
}

function textOf(content: unknown): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const parts = (content as Item[]).map((p) => (typeof p['text'] === 'string' ? p['text'] : '')).filter((t) => t !== '');
  return parts.length === 0 ? null : parts.join('');
}

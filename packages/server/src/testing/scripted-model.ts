/**
 * `scriptedModelServer()`: a model server for tests that answers `/v1/responses` from a script and
 * records every request — so agent code can be tested against real HTTP without a model.
 * @module
 */
import type { FastifyInstance } from 'fastify';
import { GymHttpRequestError } from '../http/errors.js';
import { listen } from '../server/lifecycle.js';
import { defineModelServer } from '../server/model-server.js';

type Item = Record<string, unknown>;

/** One scripted answer: the output items (and optional extras such as `incomplete_details`), or an HTTP status to fail with. */
export type ScriptedTurn = { output: Item[]; usage?: Item; incomplete_details?: Item | null } | { fail: number };

/** A running scripted model. */
export interface ScriptedModelServer {
  url: string;
  /** Bodies of every `/v1/responses` request received, in order. */
  requests: Item[];
  app: FastifyInstance;
  close(): Promise<void>;
}

/** A function call output item, for scripts. */
export function functionCall(name: string, args: unknown, callId = `call_${name}`): Item {
  return { type: 'function_call', id: `fc_${callId}`, call_id: callId, name, arguments: typeof args === 'string' ? args : JSON.stringify(args), status: 'completed' };
}

/** An assistant text message item, for scripts. */
export function assistantMessage(text: string): Item {
  return { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
}

/**
 * Starts a model server on 127.0.0.1 (port 0) answering turn after turn of `script`; when the script
 * runs out, `last` (default: the last turn) answers every further request.
 */
export async function scriptedModelServer(script: ScriptedTurn[], last: ScriptedTurn | undefined = script.at(-1)): Promise<ScriptedModelServer> {
  const requests: Item[] = [];
  const answer = (body: Item) => {
    requests.push(body);
    const turn = script[requests.length - 1] ?? last;
    if (turn === undefined) throw new GymHttpRequestError(500, 'script exhausted');
    if ('fail' in turn) throw new GymHttpRequestError(turn.fail, `scripted failure ${turn.fail}`);
    return {
      id: `resp_${requests.length}`,
      object: 'response',
      created_at: 0,
      model: 'scripted',
      status: turn.incomplete_details ? 'incomplete' : 'completed',
      incomplete_details: turn.incomplete_details ?? null,
      output: turn.output,
      usage: turn.usage ?? { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
    };
  };
  const app = defineModelServer({ name: 'scripted_model', responses: { handler: answer }, chatCompletions: { handler: () => ({ choices: [] }) } }).build();
  const { url } = await listen(app);
  return { url, requests, app, close: () => app.close() };
}

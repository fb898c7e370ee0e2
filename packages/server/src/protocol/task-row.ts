/**
 * One task row: a line of the input JSONL collection reads, and the body of an agent's `/run`.
 * @module
 */
import { z } from 'zod';
import { RESPONSES_CREATE_PARAMS } from './responses.js';
import type { ResponsesCreateParams } from './responses.js';

/** `{type, name}` pointer to the agent that runs a row. */
export interface AgentRef {
  type?: string;
  name: string;
  [extra: string]: unknown;
}

/** A task row: the create params, the collector's keys when present, and any task fields. */
export interface TaskRow {
  responses_create_params: ResponsesCreateParams;
  agent_ref?: AgentRef;
  _ng_task_index?: number;
  _ng_rollout_index?: number;
  [field: string]: unknown;
}

/** An `agent_ref`: a name, and the server type when given. */
export const AGENT_REF = z.looseObject({ type: z.string().optional(), name: z.string().min(1) });

const INDEX = z.int().nonnegative();

/** A task row. The collector's keys, when a row carries them, must have their types. */
export const TASK_ROW = z.looseObject({
  responses_create_params: RESPONSES_CREATE_PARAMS,
  agent_ref: AGENT_REF.optional(),
  _ng_task_index: INDEX.optional(),
  _ng_rollout_index: INDEX.optional(),
});

/** A raw row a prompt config will build the input of: `responses_create_params` may be absent. */
export const RAW_TASK_ROW = TASK_ROW.partial({ responses_create_params: true });

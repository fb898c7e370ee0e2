/**
 * `workplace_assistant`: the environment of the NeMo RL GRPO tutorial. 27 tools over a synthetic
 * company — directory, email, calendar, web analytics, project board, CRM — with one copy of the
 * company per session (`/seed_session` makes it; the session cookie finds it). `/verify` replays
 * the reply's function calls and the row's `ground_truth` calls on fresh companies and rewards 1.0
 * when both leave the same state.
 * @module
 */
import { z } from 'zod';
import { defineResourcesServer, gymSpan, VERIFY_REQUEST } from '@gym/server';
import type { ServerFactory } from '@gym/server';
import { createCompany } from './company.js';
import { sameOutcome } from './grade.js';
import { callTool, WORKPLACE_TOOLS } from './tools/index.js';
import type { Company } from './company.js';
import type { Action } from './grade.js';

/** A tool's body: any object (the original accepts any fields and passes them on as keyword arguments). */
const TOOL_REQUEST = z.looseObject({});

/** `/verify` body: the original's row fields. */
export const WORKPLACE_VERIFY_REQUEST = VERIFY_REQUEST.extend({
  ground_truth: z.union([z.array(z.record(z.string(), z.string())), z.string()]),
  id: z.int(),
  category: z.string(),
  environment_name: z.string(),
});

/** It has no settings of its own: `gym env validate` reports any it is given. */
export const configSchema = z.object({});

/** Sessions kept at most; the oldest goes first (a rollout that never verifies does not leak). */
const MAX_SESSIONS = 4096;

const createWorkplaceAssistant: ServerFactory = (context) => {
  const sessions = new Map<string, Company>();
  const tools = Object.fromEntries(
    Object.keys(WORKPLACE_TOOLS).map((name) => [
      name,
      {
        input: TOOL_REQUEST,
        handler: (body: Record<string, unknown>, route: { session: { id: string }; reply: { code(status: number): unknown } }) => {
          const company = sessions.get(route.session.id);
          if (company === undefined) {
            route.reply.code(400);
            return { detail: 'Session not initialized. Please call seed_session first.' };
          }
          // as the original: arguments that are null are left out, so their defaults apply
          const args = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null));
          try {
            return { output: callTool(company, name, args) };
          } catch (error) {
            // returned to the model so that it can correct itself
            return { output: `Error executing tool '${name}': ${(error as Error).message}` };
          }
        },
      },
    ]),
  );
  return defineResourcesServer({
    name: context.instance.instanceName,
    tools,
    seedSession: {
      handler: (_body, route) => {
        sessions.delete(route.session.id);
        sessions.set(route.session.id, createCompany());
        if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
        return {};
      },
    },
    verify: {
      input: WORKPLACE_VERIFY_REQUEST,
      handler: (body, route) => {
        sessions.delete(route.session.id);
        return gymSpan('verify', 'workplace_assistant.replay', (span) => {
          const predicted = body.response.output.filter((item) => item.type === 'function_call') as Action[];
          const correct = sameOutcome(predicted, body.ground_truth);
          if (span.isRecording()) {
            span.setAttribute('workplace_assistant.predicted_calls', predicted.length);
            span.setAttribute('workplace_assistant.ground_truth_calls', typeof body.ground_truth === 'string' ? 0 : body.ground_truth.length);
            span.setAttribute('workplace_assistant.same_state', correct);
          }
          return { reward: correct ? 1.0 : 0.0 };
        });
      },
    },
  });
};

export default createWorkplaceAssistant;

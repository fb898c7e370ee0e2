/**
 * `code_gen`: competitive-programming tasks. `/verify` takes the code of the last fenced block of
 * the reply and runs it against the row's unit tests (LiveCodeBench's `inputs`/`outputs`, stdin
 * programs or a named function) in a resource-limited sandbox process; the reward is 1.0 when every
 * test passes, else 0.0 — or `reasoning_format_penalty` when the reply misplaces `<think>` tags.
 * The run is the span `code_gen.execute` (span group `verify`).
 * @module
 */
import { z } from 'zod';
import { defineResourcesServer, gymSpan, VERIFY_REQUEST } from '@gym/server';
import type { ServerFactory, TraceScope } from '@gym/server';
import { Semaphore } from '../../responses_api_models/openai_model/semaphore.js';
import { extractCode, hasReasoningFormatViolation, outputText } from './extract-code.js';
import { runInSandbox } from './sandbox.js';
import type { SandboxJob, SandboxLimits, SandboxOutcome } from './sandbox.js';

/** The server's settings: the original's keys, plus the sandbox's limits. */
export const configSchema = z.object({
  num_processes: z.int().min(1),
  unit_test_timeout_secs: z.int().min(1),
  debug: z.boolean(),
  reasoning_format_penalty: z.number().default(0.0),
  /** The program's address-space limit (the original's is 4 GiB). */
  memory_limit_mb: z.int().min(16).default(4096),
  /** Characters a program may print per test before the test fails. */
  output_limit_chars: z
    .int()
    .min(1)
    .default(16 * 1024 * 1024),
});

/** LiveCodeBench's unit tests. */
const UNIT_TESTS = z.looseObject({ inputs: z.array(z.string()), outputs: z.array(z.string()), fn_name: z.string().nullable().default(null) });

/** `/verify` body: the row's `verifier_metadata` holds `unit_tests` and, optionally, `difficulty`. */
export const CODE_GEN_VERIFY_REQUEST = VERIFY_REQUEST.extend({ verifier_metadata: z.looseObject({ unit_tests: UNIT_TESTS.optional() }).nullable().default(null) });

const createCodeGen: ServerFactory = (context) => {
  const config = configSchema.parse(context.config);
  const slots = new Semaphore(config.num_processes);
  const limits: SandboxLimits = { testTimeoutSecs: config.unit_test_timeout_secs, memoryBytes: config.memory_limit_mb * 1024 * 1024, outputChars: config.output_limit_chars };

  // `scope` places the span under the request's `gym.verify`: the slot may be granted after an await
  const execute = (job: SandboxJob, scope: TraceScope | undefined) =>
    slots.run(() =>
      gymSpan(
        'verify',
        'code_gen.execute',
        async (span): Promise<SandboxOutcome & { seconds: number }> => {
          const start = performance.now();
          const outcome = await runInSandbox(job, limits);
          const seconds = (performance.now() - start) / 1000;
          if (span.isRecording()) {
            span.setAttribute('code_gen.tests', job.inputs.length);
            span.setAttribute('code_gen.tests_passed', outcome.result.filter((r) => r === true).length);
            span.setAttribute('code_gen.call_based', job.fnName !== null);
            if (outcome.killed !== null) span.setAttribute('code_gen.killed', outcome.killed);
            const code = outcome.metadata['error_code'];
            if (typeof code === 'number') span.setAttribute('code_gen.error_code', code);
          }
          return { ...outcome, seconds };
        },
        { scope },
      ),
    );

  return defineResourcesServer({
    name: context.instance.instanceName,
    tools: {},
    verify: {
      input: CODE_GEN_VERIFY_REQUEST,
      handler: async (body, route) => {
        const text = outputText(body.response.output);
        const difficulty = (body.verifier_metadata?.['difficulty'] as string | undefined) ?? null;
        // The original's answer carries every field; those it did not reach are null.
        const unreached = { extracted_model_output: null, extracted_model_code: null, result: null, metadata: null, unit_tests_time_taken: null, reasoning_format_violation_rate: 0.0, difficulty };
        if (text.trim() === '') return { reward: 0.0, ...unreached };
        const tests = UNIT_TESTS.parse(body.verifier_metadata?.unit_tests);
        const code = extractCode(text);
        if (code === '') return { reward: 0.0, ...unreached, extracted_model_output: text };
        const run = await execute({ code, inputs: tests.inputs, outputs: tests.outputs, fnName: tests.fn_name }, route.scope);
        const violation = hasReasoningFormatViolation(body.response.output);
        return {
          reward: violation ? config.reasoning_format_penalty : run.result.every((r) => r === true) ? 1.0 : 0.0,
          extracted_model_output: text,
          extracted_model_code: code,
          result: run.result,
          metadata: run.metadata,
          unit_tests_time_taken: run.seconds,
          reasoning_format_violation_rate: violation ? 1.0 : 0.0,
          difficulty,
        };
      },
    },
  });
};

export default createCodeGen;

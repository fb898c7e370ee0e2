/**
 * `local_vllm_model`: a model server that starts its own vLLM. At start-up it launches
 * `vllm serve` from the config (launcher.ts), waits until vLLM serves the model, then answers
 * exactly as `vllm_model` does in front of it (Responses and Chat Completions, token ids, reasoning
 * parsing); when the server stops, vLLM stops with it. The original's `launcher: subprocess` keys.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { ServerFactory } from '@gym/server';
import createVllmModel from '../vllm_model/app.js';
import { VLLM_MODEL_CONFIG } from '../vllm_model/config.js';
import { launchVllm } from './launcher.js';

/** The launcher's keys, and `vllm_model`'s (base_url and api_key excepted: gym sets them). */
export const configSchema = VLLM_MODEL_CONFIG.omit({ base_url: true, api_key: true }).extend({
  launcher: z.literal('subprocess', { error: "local_vllm_model: only launcher 'subprocess' (a single-node vLLM gym starts itself) is supported" }).default('subprocess'),
  subprocess: z
    .object({
      executable: z.string().min(1).default('vllm'),
      port: z.int().min(1).max(65535).nullable().default(null),
      startup_timeout_seconds: z.number().positive().default(600),
      probe_timeout_seconds: z.number().positive().default(30),
      shutdown_timeout_seconds: z.number().positive().default(10),
      request_timeout_seconds: z.number().positive().default(2),
      poll_interval_seconds: z.number().positive().default(0.25),
      log_dir: z.string().default('results/local_vllm'),
    })
    .prefault({}),
  vllm_serve_kwargs: z.record(z.string(), z.unknown()).default({}),
  vllm_serve_env_vars: z.record(z.string(), z.string()).default({}),
});

const createLocalVllmModel: ServerFactory = async (context) => {
  const parsed = configSchema.safeParse(context.config);
  if (!parsed.success) {
    throw new Error(`Invalid local_vllm_model config of '${context.instance.instanceName}': ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  const config = parsed.data;
  // a key of this run only: nothing else on the machine can use the vLLM gym started
  const apiKey = randomBytes(16).toString('hex');
  const vllm = await launchVllm({
    model: config.model,
    kwargs: config.vllm_serve_kwargs,
    env: config.vllm_serve_env_vars,
    apiKey,
    settings: config.subprocess,
    say: (line) => console.log(line),
  });
  try {
    const definition = await createVllmModel({ ...context, config: { ...context.config, base_url: vllm.baseUrl, api_key: apiKey } });
    return {
      ...definition,
      build: (options) => {
        const app = definition.build(options);
        app.addHook('onClose', async () => vllm.stop());
        return app;
      },
    };
  } catch (error) {
    await vllm.stop();
    throw error;
  }
};

export default createLocalVllmModel;

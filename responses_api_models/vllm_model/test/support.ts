/**
 * Starts a model server implementation through its factory, as `gym env start` would: a resolved
 * config tree holding one `policy_model` block, a ServerContext, one HTTP client, real HTTP.
 */
import { createHttpClient, createServerContext, listen } from '@gym/server';
import type { HttpClient, ServerFactory } from '@gym/server';
import type { FastifyInstance } from 'fastify';

/** A model server under test. */
export interface RunningModelServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  app: FastifyInstance;
  http: HttpClient;
  close(): Promise<void>;
}

/** Fast backoff so retry tests do not wait for the production delays. */
export const FAST_RETRY = { baseDelayMs: 2, maxDelayMs: 10 };

/** Builds `implementation`'s app from `factory` with `fields` as the `policy_model` block and listens. */
export async function startModelServer(factory: ServerFactory, implementation: string, fields: Record<string, unknown>): Promise<RunningModelServer> {
  const tree = { policy_model: { responses_api_models: { [implementation]: { entrypoint: 'app.ts', ...fields } } } };
  const http = createHttpClient({ retry: FAST_RETRY });
  const context = createServerContext(tree, 'policy_model', http);
  const definition = await factory(context);
  const app = definition.build({ name: 'policy_model' });
  const { url } = await listen(app);
  return {
    url,
    app,
    http,
    close: async () => {
      await app.close();
      await http.close();
    },
  };
}

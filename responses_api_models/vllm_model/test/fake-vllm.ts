/**
 * A local OpenAI-compatible upstream standing in for vLLM (and for OpenAI in openai_model's
 * tests): `GET /v1/models`, `POST /v1/chat/completions`, `POST /v1/completions`, `POST /tokenize`, `POST /v1/responses`,
 * on 127.0.0.1 port 0, with real latency and injectable failures (a status with a body, or a
 * dropped connection) consumed in order before normal answers resume.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IncomingHttpHeaders, Server } from 'node:http';

type Json = Record<string, unknown>;

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Json | undefined;
}

/**
 * A failure to inject: a status (with a JSON body), a connection dropped before any answer, or
 * no answer at all (`hang`: the request waits until its caller gives up).
 */
export type Failure = { status: number; body?: unknown; headers?: Record<string, string> } | 'disconnect' | 'hang';

/** Computes an answer for a request; return `undefined` to use the default. */
export type Responder = (request: RecordedRequest) => Json | undefined;

/** Options of {@link startFakeVllm}. */
export interface FakeVllmOptions {
  /** Served model name. Default `fake-model`. */
  model?: string;
  /** Tag put into default answers, to tell replicas apart. Default `replica`. */
  name?: string;
  /** Delay before every answer, in ms. Default 5. */
  latencyMs?: number;
}

/** A running fake. */
export interface FakeVllm {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/v1` */
  baseUrl: string;
  readonly requests: RecordedRequest[];
  /** Most requests that were being answered at the same time (received, answer not yet sent). */
  readonly peakInFlight: number;
  /** Resolves once `count` requests in all were given up by their caller before an answer. */
  abandoned(count: number): Promise<void>;
  /** Queues failures for the next requests to a path (e.g. `/v1/chat/completions`). */
  fail(path: string, ...failures: Failure[]): void;
  /** Answers the next requests to a path with these bodies (or responders), in order. */
  reply(path: string, ...answers: Array<Json | Responder>): void;
  close(): Promise<void>;
}

/** The default chat completion: a short text, and vLLM's token fields when they were asked for. */
export function defaultChatCompletion(body: Json, model: string, name: string): Json {
  const text = `Hello from ${name}.`;
  const generation = [9906, 505, 2311, 13];
  const choice: Json = { index: 0, finish_reason: 'stop', stop_reason: null, logprobs: null, message: { role: 'assistant', content: text, tool_calls: [], reasoning_content: null } };
  const completion: Json = {
    id: 'chatcmpl-fake0001',
    object: 'chat.completion',
    created: 1_750_000_000,
    model,
    choices: [choice],
    usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16, prompt_tokens_details: null },
    prompt_logprobs: null,
  };
  if (body['logprobs'] === true && body['return_tokens_as_token_ids'] === true) {
    choice['logprobs'] = { content: generation.map((id, i) => ({ token: `token_id:${id}`, logprob: -0.25 * (i + 1), bytes: null, top_logprobs: [] })) };
  }
  if (body['return_token_ids'] === true) {
    completion['prompt_token_ids'] = FAKE_PROMPT_IDS;
    choice['token_ids'] = generation;
  }
  return completion;
}

/** The default text completion (`/v1/completions`), with vLLM's token fields when they were asked for. */
export function defaultCompletion(body: Json, model: string, name: string): Json {
  const generation = [9906, 505, 2311, 13];
  const choice: Json = { index: 0, text: `Hello from ${name}.`, finish_reason: 'stop', stop_reason: null, logprobs: null };
  if (typeof body['logprobs'] === 'number') {
    choice['logprobs'] = {
      tokens: generation.map((id) => (body['return_tokens_as_token_ids'] === true ? `token_id:${id}` : `t${id}`)),
      token_logprobs: generation.map((_, i) => -0.25 * (i + 1)),
      top_logprobs: null,
      text_offset: [0, 1, 2, 3],
    };
  }
  if (body['return_token_ids'] === true) {
    choice['prompt_token_ids'] = FAKE_PROMPT_IDS;
    choice['token_ids'] = generation;
  }
  return { id: 'cmpl-fake0001', object: 'text_completion', created: 1_750_000_000, model, choices: [choice], usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } };
}

/** Prompt ids the fake reports (from `/tokenize` and with `return_token_ids`). */
export const FAKE_PROMPT_IDS = [128000, 882, 25, 13347];

function defaultAnswer(request: RecordedRequest, model: string, name: string): Json | undefined {
  const body = request.body ?? {};
  if (request.method === 'GET' && request.path === '/v1/models') return { object: 'list', data: [{ id: model, object: 'model', owned_by: 'vllm' }] };
  if (request.path === '/v1/chat/completions') return defaultChatCompletion(body, model, name);
  if (request.path === '/v1/completions') return defaultCompletion(body, model, name);
  if (request.path === '/tokenize') return { tokens: FAKE_PROMPT_IDS, count: FAKE_PROMPT_IDS.length, max_model_len: 32768 };
  if (request.path === '/v1/responses') {
    return {
      id: 'resp_fake0001',
      object: 'response',
      created_at: 1_750_000_000,
      model,
      status: 'completed',
      error: null,
      incomplete_details: null,
      output: [{ id: 'msg_fake0001', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Hello from ${name}.`, annotations: [] }] }],
      usage: { input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: 4, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 16 },
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      temperature: 1,
      top_p: 1,
      metadata: {},
      instructions: null,
    };
  }
  return undefined;
}

/** Starts a fake on 127.0.0.1, port 0. */
export async function startFakeVllm(options: FakeVllmOptions = {}): Promise<FakeVllm> {
  const model = options.model ?? 'fake-model';
  const name = options.name ?? 'replica';
  const latencyMs = options.latencyMs ?? 5;
  const requests: RecordedRequest[] = [];
  const failures = new Map<string, Failure[]>();
  const answers = new Map<string, Array<Json | Responder>>();
  let inFlight = 0;
  let peakInFlight = 0;
  let abandoned = 0;
  const abandonWaiters: Array<{ count: number; resolve: () => void }> = [];
  const noteAbandoned = (): void => {
    abandoned += 1;
    for (const waiter of abandonWaiters.filter((w) => w.count <= abandoned)) {
      abandonWaiters.splice(abandonWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const recorded: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body: raw === '' ? undefined : (JSON.parse(raw) as Json) };
      requests.push(recorded);
      inFlight += 1;
      peakInFlight = Math.max(peakInFlight, inFlight);
      let dropped = false;
      res.on('close', () => {
        inFlight -= 1;
        if (!res.writableEnded && !dropped) noteAbandoned();
      });
      const failure = failures.get(path)?.shift();
      const scripted = failure === undefined ? answers.get(path)?.shift() : undefined;
      setTimeout(() => {
        if (failure === 'disconnect') {
          dropped = true;
          return void req.socket.destroy();
        }
        if (failure === 'hang') return;
        const status = failure?.status ?? 200;
        const answer =
          failure !== undefined ? failure.body : typeof scripted === 'function' ? (scripted(recorded) ?? defaultAnswer(recorded, model, name)) : (scripted ?? defaultAnswer(recorded, model, name));
        if (answer === undefined) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: 'Not Found' }));
          return;
        }
        res.writeHead(status, { 'content-type': 'application/json', ...(failure !== undefined ? failure.headers : {}) }).end(JSON.stringify(answer));
      }, latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/v1`,
    requests,
    get peakInFlight() {
      return peakInFlight;
    },
    abandoned: (count) => (abandoned >= count ? Promise.resolve() : new Promise<void>((resolve) => abandonWaiters.push({ count, resolve }))),
    fail: (path, ...list) => failures.set(path, [...(failures.get(path) ?? []), ...list]),
    reply: (path, ...list) => answers.set(path, [...(answers.get(path) ?? []), ...list]),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// The hand-written chain the framework is measured against: node:http servers and undici pools
// making exactly the hops of one gym rollout (seed, model, tool, model, verify), with the same
// simulated model, and none of gym's framework (no fastify, no validation, no sessions).
// With FLOOR_TRACE_OUT set (`file:<path>` or `tcp:<port>`) each server also traces by hand the spans
// gym's `default` preset writes, with the same names and attributes, through floor-tracer.ts.
// Run: node --import tsx baseline-server.ts <role> <port> [model-url resources-url]
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import type { Writable } from 'node:stream';
import { Pool } from 'undici';
import { simulateResponse } from '../../responses_api_models/simulated_model/responses.js';
import { FloorTracer, extractTraceparent, injectTraceparent, randomHex } from './floor-tracer.js';
import type { FloorContext } from './floor-tracer.js';

const [role, portText, modelUrl, resourcesUrl] = process.argv.slice(2);

/** gym's server name of each role, so the floor's records are as long as gym's. */
const SERVER_NAMES: Record<string, string> = { agent: 'example_single_tool_call_simple_agent', model: 'policy_model', resources: 'example_single_tool_call' };
const SERVER_TYPES: Record<string, string> = { agent: 'responses_api_agents', model: 'responses_api_models', resources: 'resources_servers' };
const serverName = SERVER_NAMES[role!]!;
const serverNameJson = JSON.stringify(serverName);

function traceOutput(spec: string): Writable {
  if (spec.startsWith('tcp:')) return connect(Number(spec.slice(4)), '127.0.0.1');
  return createWriteStream(spec.slice(spec.indexOf(':') + 1));
}

const tracer =
  process.env.FLOOR_TRACE_OUT === undefined
    ? undefined
    : new FloorTracer(
        traceOutput(process.env.FLOOR_TRACE_OUT),
        { serviceName: `nemo-gym/${serverName}`, pid: process.pid },
        {
          'host.name': hostname(),
          'process.pid': process.pid,
          'process.runtime.name': 'nodejs',
          'process.runtime.version': process.versions.node,
          'service.name': `nemo-gym/${serverName}`,
          'service.version': '0.1.0',
          'nemo.run.id': randomHex(6),
          'nemo.gym.service_group': 'nemo-gym',
          'nemo.gym.server.name': serverName,
          'nemo.gym.server.type': SERVER_TYPES[role!]!,
          'nemo.gym.version': '0.1.0',
          'nv.dl.rank': 0,
          'nv.dl.world_size': 1,
        },
      );

/** What a handler's spans hang from: its request's SERVER span and rollout. */
interface Scope {
  parent: FloorContext | undefined;
  rolloutId: string | undefined;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? {} : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
}

function send(res: ServerResponse, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const ROLLOUT_BAGGAGE = 'nemo.gym.rollout.id=';
const pools = new Map<string, Pool>();
async function post(url: string, body: unknown, scope: Scope): Promise<{ text: string; json: Record<string, unknown> }> {
  const target = new URL(url);
  let pool = pools.get(target.origin);
  if (pool === undefined) pools.set(target.origin, (pool = new Pool(target.origin, { connections: 256, pipelining: 1 })));
  const span = tracer?.start('HTTP POST', 'CLIENT', scope.parent);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (span !== undefined) {
    headers['traceparent'] = injectTraceparent(span);
    if (scope.rolloutId !== undefined) headers['baggage'] = `${ROLLOUT_BAGGAGE}${scope.rolloutId}`;
  }
  const res = await pool.request({ method: 'POST', path: target.pathname, headers, body: JSON.stringify(body) });
  const headersAt = performance.timeOrigin + performance.now();
  const text = await res.body.text();
  if (span !== undefined) {
    const doneAt = performance.timeOrigin + performance.now();
    const rollout = scope.rolloutId === undefined ? '' : `"nemo.gym.rollout.id":"${scope.rolloutId}",`;
    const phases = `"gym.http.phase.queued_ms":0,"gym.http.phase.connect_ms":0,"gym.http.connection.reused":true,"gym.http.phase.sent_at_ms":0,"gym.http.phase.headers_at_ms":${Math.round((headersAt - span.startMs) * 1000) / 1000},"gym.http.phase.done_at_ms":${Math.round((doneAt - span.startMs) * 1000) / 1000}`;
    tracer!.end(
      span,
      `{"http.request.method":"POST","url.full":${JSON.stringify(url)},"server.address":"${target.hostname}","server.port":${target.port},${rollout}${phases},"http.response.status_code":${res.statusCode}}`,
    );
  }
  return { text, json: JSON.parse(text) as Record<string, unknown> };
}

/** Runs `fn` inside an INTERNAL span `name` whose attributes `attributesOf` writes from fn's result (untraced: `fn` alone). */
function inSpan<T>(name: string, scope: Scope, fn: (inner: Scope) => T | Promise<T>, attributesOf: (value: T) => string): T | Promise<T> {
  if (tracer === undefined) return fn(scope);
  const span = tracer.start(name, 'INTERNAL', scope.parent);
  return Promise.resolve(fn({ parent: span, rolloutId: scope.rolloutId })).then((value) => {
    tracer.end(span, `{${attributesOf(value)}"nemo.gym.rollout.id":${JSON.stringify(scope.rolloutId ?? '')},"nemo.gym.server.name":${serverNameJson}}`);
    return value;
  });
}

const handlers: Record<string, (path: string, body: Record<string, unknown>, scope: Scope) => unknown> = {
  model: (_path, body, scope) =>
    inSpan(
      'gym.model.responses',
      scope,
      () => simulateResponse(body, 'simulated-policy').response,
      (response) => {
        const usage = response['usage'] as { input_tokens?: number; output_tokens?: number } | undefined;
        return `"gen_ai.operation.name":"responses","gen_ai.request.model":"simulated-policy","gen_ai.response.model":${JSON.stringify(response['model'])},"gen_ai.usage.input_tokens":${usage?.input_tokens ?? 0},"gen_ai.usage.output_tokens":${usage?.output_tokens ?? 0},`;
      },
    ),
  resources: (path, body, scope) => {
    if (path === '/get_weather') return { city: body['city'], weather_description: `The weather in ${String(body['city'])} is cold.` };
    if (path === '/verify') {
      return inSpan(
        'gym.verify',
        scope,
        (inner) =>
          inSpan(
            'example_single_tool_call.grade',
            inner,
            () => ({ ...body, reward: 1.0 }),
            () => '"example_single_tool_call.tool_calls":1,',
          ),
        (verified) => `"gym.verify.reward":${verified.reward},`,
      );
    }
    return {};
  },
  agent: (_path, row, scope) => {
    // the agent starts the rollout: its id goes on its own SERVER span and, as baggage, to every hop
    if (tracer !== undefined) scope.rolloutId = `r-${randomHex(6)}`;
    return inSpan(
      'gym.rollout',
      scope,
      async (inner) => {
        await post(`${resourcesUrl}/seed_session`, row, inner);
        const params = row['responses_create_params'] as Record<string, unknown>;
        const trajectory: Array<Record<string, unknown>> = [];
        let last: Record<string, unknown> = {};
        for (let step = 0; step < 8; step++) {
          last = (await post(`${modelUrl}/v1/responses`, { ...params, input: [...(params['input'] as unknown[]), ...trajectory] }, inner)).json;
          const output = last['output'] as Array<Record<string, unknown>>;
          trajectory.push(...output);
          const calls = output.filter((o) => o['type'] === 'function_call');
          if (calls.length === 0) break;
          for (const call of calls) {
            const tool = await post(`${resourcesUrl}/${String(call['name'])}`, JSON.parse(String(call['arguments'])), inner);
            trajectory.push({ type: 'function_call_output', call_id: call['call_id'], output: tool.text });
          }
        }
        return (await post(`${resourcesUrl}/verify`, { ...row, response: { ...last, output: trajectory } }, inner)).json;
      },
      (verified) => `"gym.verify.reward":${Number(verified['reward'])},`,
    );
  },
};

function rolloutIdOf(baggage: string | string[] | undefined): string | undefined {
  return typeof baggage === 'string' && baggage.startsWith(ROLLOUT_BAGGAGE) ? baggage.slice(ROLLOUT_BAGGAGE.length) : undefined;
}

const handle = handlers[role!]!;
const UNTRACED: Scope = { parent: undefined, rolloutId: undefined };

function respond(req: IncomingMessage, res: ServerResponse, scope: Scope): Promise<number> {
  return readJson(req)
    .then((body) => handle(req.url ?? '/', body, scope))
    .then((value) => {
      send(res, value);
      return 200;
    })
    .catch((error: unknown) => {
      res.writeHead(500).end(String(error));
      return 500;
    });
}

/** The request inside a SERVER span `<METHOD> <path>`, ended when the answer was handed to the socket. */
function respondTraced(tracing: FloorTracer, req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  const span = tracing.start(`${req.method} ${path}`, 'SERVER', extractTraceparent(req.headers.traceparent));
  const scope: Scope = { parent: span, rolloutId: rolloutIdOf(req.headers.baggage) };
  void respond(req, res, scope).then((status) => {
    const rollout = scope.rolloutId === undefined ? '' : `,"nemo.gym.rollout.id":"${scope.rolloutId}"`;
    const pathJson = JSON.stringify(path);
    const attributes = `{"http.request.method":"${req.method}","url.path":${pathJson},"nemo.gym.server.name":${serverNameJson},"http.route":${pathJson}${rollout},"http.response.status_code":${status}}`;
    tracing.end(span, attributes, status >= 500 ? `HTTP ${status}` : undefined);
  });
}

const server = createServer((req, res) => (tracer === undefined ? void respond(req, res, UNTRACED) : respondTraced(tracer, req, res)));
server.keepAliveTimeout = 30_000;
server.listen(Number(portText), '127.0.0.1', 4096, () => process.stdout.write(`ready ${role}\n`));
process.on('SIGTERM', () => server.close(() => void (tracer?.close() ?? Promise.resolve()).then(() => process.exit(0))));

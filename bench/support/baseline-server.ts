// The hand-written chain the framework is measured against: node:http servers and undici pools
// making exactly the hops of one gym rollout (seed, model, tool, model, verify), with the same
// simulated model, and none of gym's framework (no fastify, no validation, no sessions).
// Run: node --import tsx baseline-server.ts <role> <port> [model-url resources-url]
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'undici';
import { simulateResponse } from '../../responses_api_models/simulated_model/responses.js';

const [role, portText, modelUrl, resourcesUrl] = process.argv.slice(2);

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

const pools = new Map<string, Pool>();
async function post(url: string, body: unknown): Promise<{ text: string; json: Record<string, unknown> }> {
  const target = new URL(url);
  let pool = pools.get(target.origin);
  if (pool === undefined) pools.set(target.origin, (pool = new Pool(target.origin, { connections: 256, pipelining: 1 })));
  const res = await pool.request({ method: 'POST', path: target.pathname, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.body.text();
  return { text, json: JSON.parse(text) as Record<string, unknown> };
}

const handlers: Record<string, (path: string, body: Record<string, unknown>) => unknown> = {
  model: (_path, body) => simulateResponse(body, 'simulated-policy').response,
  resources: (path, body) => {
    if (path === '/get_weather') return { city: body['city'], weather_description: `The weather in ${String(body['city'])} is cold.` };
    if (path === '/verify') return { ...body, reward: 1.0 };
    return {};
  },
  agent: async (_path, row) => {
    await post(`${resourcesUrl}/seed_session`, row);
    const params = row['responses_create_params'] as Record<string, unknown>;
    const trajectory: Array<Record<string, unknown>> = [];
    let last: Record<string, unknown> = {};
    for (let step = 0; step < 8; step++) {
      last = (await post(`${modelUrl}/v1/responses`, { ...params, input: [...(params['input'] as unknown[]), ...trajectory] })).json;
      const output = last['output'] as Array<Record<string, unknown>>;
      trajectory.push(...output);
      const calls = output.filter((o) => o['type'] === 'function_call');
      if (calls.length === 0) break;
      for (const call of calls) {
        const tool = await post(`${resourcesUrl}/${String(call['name'])}`, JSON.parse(String(call['arguments'])));
        trajectory.push({ type: 'function_call_output', call_id: call['call_id'], output: tool.text });
      }
    }
    return (await post(`${resourcesUrl}/verify`, { ...row, response: { ...last, output: trajectory } })).json;
  },
};

const handle = handlers[role!]!;
const server = createServer((req, res) => {
  readJson(req)
    .then((body) => handle(req.url ?? '/', body))
    .then((value) => send(res, value))
    .catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(portText), '127.0.0.1', 4096, () => process.stdout.write(`ready ${role}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

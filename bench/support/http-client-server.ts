// The upstreams of `http-client`: one node:http server answering the agent's calls as gym's model
// and resources servers do (the simulated model's Response, a tool's answer, the verified row), with
// a session cookie set on every request that brings none, as a gym server sets it.
// Run: node --import tsx http-client-server.ts   (prints its port)
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simulateResponse } from '../../responses_api_models/simulated_model/responses.js';

function answer(path: string, body: Record<string, unknown>): unknown {
  if (path === '/v1/responses') return simulateResponse(body, 'simulated-policy').response;
  if (path === '/get_weather') return { city: body['city'], weather_description: `The weather in ${String(body['city'])} is cold.` };
  if (path === '/verify') return { ...body, reward: 1.0 };
  return {};
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = chunks.length === 0 ? {} : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
    const text = JSON.stringify(answer(req.url ?? '/', body));
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
    if (req.headers.cookie === undefined) headers['set-cookie'] = `session=${randomUUID()}.${randomUUID()}; Path=/; HttpOnly; SameSite=Lax`;
    res.writeHead(200, headers);
    res.end(text);
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', 4096, () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));

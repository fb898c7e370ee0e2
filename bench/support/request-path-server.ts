// One server process of request-path.bench.ts: a single `POST /run` route that takes the example
// row and answers a verify-sized JSON reply, built one of three ways (node:http by hand, bare
// fastify, gym's `createServerApp` + `addJsonRoute`). Prints its port on stdout once listening.
// Run: node --import tsx request-path-server.ts <http|fastify|gym> [path of @gym/server's index.js to load instead]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

type Body = { responses_create_params?: { input?: { content?: unknown }[] } };

/** About 300 bytes of JSON, like a `/verify` answer, with something taken from the request. */
function answer(body: Body): unknown {
  const question = body.responses_create_params?.input?.[1]?.content;
  return {
    reward: 1,
    response: {
      id: 'resp_bench',
      object: 'response',
      status: 'completed',
      model: 'simulated',
      output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: String(question) }] }],
    },
    usage: { input_tokens: 42, output_tokens: 17, total_tokens: 59 },
  };
}

const [variant, gymEntry] = process.argv.slice(2);
let port: number;
if (variant === 'http') {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = JSON.stringify(answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
} else if (variant === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024, keepAliveTimeout: 30_000 });
  app.post('/run', (request, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(answer(request.body as Body))));
  await app.listen({ host: '127.0.0.1', port: 0 });
  port = (app.server.address() as AddressInfo).port;
} else if (variant === 'gym') {
  const gym = (gymEntry === undefined ? await import('@gym/server') : await import(pathToFileURL(gymEntry).href)) as typeof import('@gym/server');
  const app = gym.createServerApp({ name: 'request_path' });
  gym.addJsonRoute(app, { method: 'POST', path: '/run', handler: (body) => answer(body as Body) });
  port = (await gym.listen(app, { port: 0 })).port;
} else {
  throw new Error(`unknown variant '${String(variant)}'`);
}
process.stdout.write(`${port}\n`);
// a clean exit on SIGTERM, so that a `--cpu-prof` profile is written
process.on('SIGTERM', () => process.exit(0));

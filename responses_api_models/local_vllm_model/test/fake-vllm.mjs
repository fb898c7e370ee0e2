#!/usr/bin/env node
// A stand-in for the `vllm` executable in tests: `fake-vllm.mjs serve <checkpoint> --port=<p>
// --served-model-name <name> …` serves the OpenAI API vLLM serves (GET /v1/models, POST
// /v1/chat/completions) on that port, after a moment of "loading" in which /v1/models answers 503.
// It appends what happens (start, requests, stop) as JSON lines to $FAKE_VLLM_RECORD.
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';

const args = process.argv.slice(2);
const record = (event) => appendFileSync(process.env.FAKE_VLLM_RECORD, `${JSON.stringify({ ...event, pid: process.pid })}\n`);
const option = (name) => {
  const i = args.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return args[i].includes('=') ? args[i].slice(args[i].indexOf('=') + 1) : args[i + 1];
};
const port = Number(option('port'));
const served = option('served-model-name');
record({ event: 'start', args, apiKey: process.env.VLLM_API_KEY !== undefined });
let polls = 0;

const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const json = (status, value) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.headers.authorization !== `Bearer ${process.env.VLLM_API_KEY}`) return json(401, { error: { message: 'bad key' } });
    if (req.method === 'GET' && req.url === '/v1/models') {
      // loading: the first two readiness polls find no model yet
      if (++polls <= 2) return json(503, { error: { message: 'loading' } });
      return json(200, { object: 'list', data: [{ id: served, object: 'model' }] });
    }
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      const request = JSON.parse(body);
      record({ event: 'request', path: req.url, model: request.model });
      const message = { role: 'assistant', content: 'Hello from the local vLLM.' };
      return json(200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: request.model,
        choices: [{ index: 0, message, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
      });
    }
    json(404, { detail: 'Not Found' });
  });
});
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  record({ event: 'stop', signal: 'SIGTERM' });
  server.close(() => process.exit(0));
});

// An OTLP/HTTP collector that accepts every export and keeps nothing: what `push` costs its own
// process, without a receiver's work beside it. Prints `{"url", "pid"}` once it listens, and on
// SIGTERM the bodies and bytes it took.
// Run: node bench/support/otlp-sink.mjs
import { createServer } from 'node:http';

let requests = 0;
let bytes = 0;
const server = createServer((req, res) => {
  req.on('data', (chunk) => (bytes += chunk.length));
  req.on('end', () => {
    requests++;
    // an empty ExportTraceServiceResponse: zero bytes in protobuf, {} in JSON
    const json = (req.headers['content-type'] ?? '').includes('json');
    res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
    res.end(json ? '{}' : '');
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}`, pid: process.pid }));
});
process.on('SIGTERM', () => {
  console.log(JSON.stringify({ requests, bytes }));
  server.close();
  process.exit(0);
});

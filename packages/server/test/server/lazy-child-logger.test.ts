import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { addJsonRoute, createServerApp } from '../../src/server/index.js';

describe("a request's logger", () => {
  it('is made when the request first logs, and writes the lines a child of the server logger writes', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
        done();
      },
    });
    const logger = pino({ base: { server: 'lazy' } }, stream);
    const child = logger.child.bind(logger);
    let made = 0;
    logger.child = ((...args: Parameters<typeof child>) => {
      made++;
      return child(...args);
    }) as typeof logger.child;
    const app = createServerApp({ name: 'lazy', logger });
    addJsonRoute(app, { method: 'POST', path: '/echo', handler: (body) => body });
    try {
      // fastify makes children of its own while it starts
      await app.ready();
      made = 0;
      const quiet = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
      assert.equal(quiet.statusCode, 200);
      assert.equal(made, 0);
      // a literal null body is refused with a warning from the request's logger
      const refused = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: 'null' });
      assert.equal(refused.statusCode, 422);
      assert.equal(made, 1);
      const warning = lines.find((l) => l['msg'] === 'request body is null');
      assert.ok(warning !== undefined, JSON.stringify(lines));
      assert.equal(warning['server'], 'lazy');
      assert.equal(warning['reqId'], 'req-2');
      assert.equal(warning['route'], '/echo');
    } finally {
      await app.close();
    }
  });
});

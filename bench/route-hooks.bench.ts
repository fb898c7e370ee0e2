// The server ingress's telemetry per request, app-wide hooks against route-level hooks, side by side
// in one process: two apps with the same route (`POST /verify`, gym.verify's endpoint) and the same
// `default` telemetry writing console lines to the null device; one gets the instrumentation without
// `forRoute` (the app-wide hooks, as before), the other with it. Each is driven through fastify's
// `inject` (no sockets: the ingress's own work shows) in alternating rounds; CPU per request of
// the whole process.
// Run: npm run bench -- route-hooks   (BENCH_REQUESTS per round, BENCH_ROUNDS)
import { createWriteStream } from 'node:fs';
import { devNull, loadavg } from 'node:os';
import { z } from 'zod';
import { addJsonRoute, createServerApp } from '../packages/runtime/src/server/index.js';
import { initTelemetry } from '../packages/runtime/src/telemetry/init.js';
import { processTelemetry } from '../packages/runtime/src/telemetry/process-telemetry.js';
import { serverTelemetrySettings } from '../packages/runtime/src/telemetry/settings.js';
import type { ServerInstrumentation } from '../packages/runtime/src/server/index.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const env = { ...process.env, NEMO_GYM_OTEL_ENABLED: '1', NEMO_GYM_OTEL_EXPORTER: 'console', NEMO_GYM_OTEL_SPAN_GROUPS: 'default' };
const output = createWriteStream(devNull);
const telemetry = await initTelemetry({ settings: serverTelemetrySettings(env), serverName: 'bench_server', serverType: 'resources_servers', output });
const server = processTelemetry(telemetry).server!;

function app(instrumentation: ServerInstrumentation) {
  const built = createServerApp({ name: 'bench_server', instrumentation });
  addJsonRoute(built, { method: 'POST', path: '/verify', input: z.looseObject({ response: z.unknown() }), handler: () => ({ reward: 1 }), endpoint: 'verify' });
  return built;
}
const appWideOnly: ServerInstrumentation = { ...server };
delete appWideOnly.forRoute;
const variants = { 'app-wide hooks (before)': app(appWideOnly), 'route-level hooks (after)': app(server) };
const body = JSON.stringify({ response: { output: [{ type: 'message', content: [{ type: 'output_text', text: 'Paris' }] }] } });
const headers = { 'content-type': 'application/json', baggage: 'nemo.gym.rollout.id=0-1', traceparent: '00-543c8adacbf1d9c0379b59286beff5ae-076c18e84ac099fc-01' };

async function round(target: ReturnType<typeof app>): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i += 64) {
    await Promise.all(Array.from({ length: 64 }, () => target.inject({ method: 'POST', url: '/verify', headers, payload: body })));
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / REQUESTS;
}

const results = new Map<string, number[]>(Object.keys(variants).map((k) => [k, []]));
for (const target of Object.values(variants)) await round(target); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? Object.entries(variants) : Object.entries(variants).reverse();
  for (const [label, target] of order) results.get(label)!.push(await round(target));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`\nCPU µs per request through inject, ${REQUESTS} requests a round, ${ROUNDS} rounds, node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}\n`);
console.log('| ingress | µs per request, median (rounds) |\n| --- | --- |');
for (const [label, xs] of results) console.log(`| ${label} | ${median(xs).toFixed(1)} (${xs.map((x) => x.toFixed(1)).join(', ')}) |`);
const [before, after] = [...results.values()].map(median) as [number, number];
console.log(`\nroute-level ÷ app-wide (median): ${(after / before).toFixed(3)}`);
for (const target of Object.values(variants)) await target.close();
await telemetry?.shutdown();

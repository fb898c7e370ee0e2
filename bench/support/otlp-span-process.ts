// One side of otlp-span.bench.ts: lens set up with the `otlp` exporter (gRPC, to
// OTEL_EXPORTER_OTLP_ENDPOINT), or telemetry off, then "rollouts" of the agent's share of gym's
// spans (a SERVER span, the rollout span, CLIENT spans with their phase attributes, an endpoint
// span; gym's names and attribute keys) made through lens's lean tracer at a steady pace, with some
// garbage of the request's own per rollout, so spans queued for export live among a server's
// allocations. Prints {"cpuUs","rollouts","spans","exported","lost"}: this process's CPU (all threads).
// GYM_LENS_ROOT: import lens from another checkout (to compare two versions side by side).
import { SpanKind } from '@opentelemetry/api';
import type { SpanContext } from '@opentelemetry/api';

type Lens = typeof import('@gym/lens');
type Setup = typeof import('@gym/lens/setup');
const root = process.env.GYM_LENS_ROOT;
const lens: Lens = root === undefined ? await import('@gym/lens') : ((await import(`${root}/packages/lens/src/index.ts`)) as Lens);
const setup: Setup = root === undefined ? await import('@gym/lens/setup') : ((await import(`${root}/packages/lens/src/setup/index.ts`)) as Setup);

const ROLLOUTS = Number(process.env.BENCH_ROLLOUTS ?? 5000);
const PER_TICK = Number(process.env.BENCH_ROLLOUTS_PER_TICK ?? 1);
const TICK_MS = Number(process.env.BENCH_TICK_MS ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP_ROLLOUTS ?? 2000);
const GARBAGE = Number(process.env.BENCH_GARBAGE_OBJECTS ?? 2000);
const off = process.env.BENCH_OTLP_SPAN_OFF === '1';

const handle = off
  ? undefined
  : await setup.setupTelemetry(new setup.NemoLensConfig({ enabled: true, exporter: 'otlp', spanGroups: 'default', serviceName: 'bench-agent' }), {
      resourceAttributes: { 'nemo.gym.server.name': 'example_single_tool_call_simple_agent', 'nemo.gym.server.type': 'responses_api_agents' },
    });
const tracer = lens.getLeanTracer('nemo.gym', '0.1.0');

let kept: unknown[] = [];
/** What a request allocates besides its spans: small objects and strings, dropped soon after. */
function requestGarbage(n: number): void {
  const objects: unknown[] = [];
  for (let i = 0; i < n; i++) objects.push({ i, text: `item-${i}`, nested: { a: i, b: [i, i + 1] } });
  kept = objects;
}

let spans = 0;
function rollout(k: number): void {
  const rolloutId = `r-${(k * 2654435761) % 1e9}`;
  const server = tracer.startSpan('POST /run', SpanKind.SERVER, undefined, {
    'http.request.method': 'POST',
    'url.path': '/run',
    'nemo.gym.server.name': 'example_single_tool_call_simple_agent',
    'http.route': '/run',
  });
  const parent: SpanContext = server.spanContext();
  const run = tracer.startSpan('gym.rollout', SpanKind.INTERNAL, parent, { 'nemo.gym.server.name': 'example_single_tool_call_simple_agent', 'nemo.gym.rollout.id': rolloutId });
  for (let c = 0; c < 4; c++) {
    const client = tracer.startSpan('POST', SpanKind.CLIENT, run.spanContext(), {
      'http.request.method': 'POST',
      'url.full': c % 2 === 0 ? 'http://127.0.0.1:18178/v1/responses' : 'http://127.0.0.1:14680/get_weather',
      'server.address': '127.0.0.1',
      'server.port': c % 2 === 0 ? 18178 : 14680,
      'nemo.gym.rollout.id': rolloutId,
      'nemo.gym.http.connect_ms': 0,
      'nemo.gym.http.ttfb_ms': 1.234,
      'nemo.gym.http.body_ms': 0.111,
    });
    client.setAttribute('http.response.status_code', 200);
    client.end();
  }
  const verify = tracer.startSpan('gym.verify', SpanKind.INTERNAL, run.spanContext(), { 'nemo.gym.server.name': 'example_single_tool_call_simple_agent', 'nemo.gym.rollout.id': rolloutId });
  verify.end();
  run.end();
  server.setAttribute('nemo.gym.rollout.id', rolloutId);
  server.setAttribute('http.response.status_code', 200);
  server.end();
  spans += 7;
}

async function rollouts(n: number): Promise<void> {
  for (let k = 0; k < n; k += PER_TICK) {
    for (let j = 0; j < PER_TICK; j++) {
      requestGarbage(GARBAGE);
      rollout(k + j);
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  // the batch processor's flush does not wait for the export already under way: wait for its answer too
  while (handle !== undefined) {
    await handle.forceFlush();
    const { accepted, exported, failed } = handle.losses().spans;
    if (exported + failed >= accepted) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

// unmeasured: the exporter's modules load on its first export, and the code warms up
await rollouts(WARMUP);
const warm = handle?.losses().spans;
spans = 0;
const started = process.cpuUsage();
await rollouts(ROLLOUTS);
const used = process.cpuUsage(started);
const total = handle?.losses().spans;
const losses = total && warm && { exported: total.exported - warm.exported, lost: total.lost - warm.lost };
await handle?.shutdown();
if (kept.length < 0) console.log('');
console.log(JSON.stringify({ cpuUs: used.user + used.system, rollouts: ROLLOUTS, spans, exported: losses?.exported ?? 0, lost: losses?.lost ?? 0 }));

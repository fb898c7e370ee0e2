// The cost of one histogram record per request: the SDK's `Histogram.record` with the request's
// attributes (it hashes them on every call) against lens's series bound to them once
// (`getLeanHistogram(…).bind(…)`), both in lens's metric pipeline, as a server records
// `http.server.request.duration`.
// Run: npm run bench -- lens-histogram
import { Writable } from 'node:stream';
import { bench, group } from 'mitata';
import { metrics } from '@opentelemetry/api';
import { getLeanHistogram, SpanRegistry } from '@gym/lens';
import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';
import { runAndReport } from './support/mitata-report.js';

const BOUNDS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const ATTRIBUTES = Object.freeze({ 'http.request.method': 'POST', 'http.response.status_code': 200, 'http.route': '/v1/responses' });
SpanRegistry.register('bench', { groups: ['rollout'] });
const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
const handle = await setupTelemetry(new NemoLensConfig({ enabled: true, exporter: 'console', spanGroups: 'rollout', tracesEnabled: false, logsEnabled: false }), { output: sink, allowReinit: true });

const sdk = metrics.getMeter('bench').createHistogram('sdk.duration', { unit: 's', advice: { explicitBucketBoundaries: BOUNDS } });
const bound = getLeanHistogram('bench', undefined, 'lean.duration', { unit: 's', description: 'bench', boundaries: BOUNDS }).bind(ATTRIBUTES);
let i = 0;

group('one histogram record, 3 attributes', () => {
  bench('SDK Histogram.record(value, attributes)', () => sdk.record((i++ % 100) / 1000, ATTRIBUTES));
  bench('lens bound series .record(value)', () => bound.record((i++ % 100) / 1000));
});

await runAndReport([{ subject: 'lens bound series .record(value)', baseline: 'SDK Histogram.record(value, attributes)' }]);
await handle.shutdown();

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findAnomalies } from '../src/analyze/anomalies.js';
import { retryCount } from '../src/analyze/retries.js';
import { assembleTraces } from '../src/assemble/assemble-traces.js';
import { findRollouts } from '../src/assemble/rollouts.js';
import { bare, rolloutSpans, toRecords } from './support/fixtures.js';

describe('findAnomalies', () => {
  const ok = rolloutSpans({ rolloutId: 'ok' });
  const noVerify = rolloutSpans({ rolloutId: 'nv', noVerify: true });
  const retried = { ...ok[2]!, spanId: '00000000000000a1', attributes: { 'http.request.resend_count': 2 } };
  const evented = { ...ok[2]!, spanId: '00000000000000a2', events: [{ name: 'gym.http.retry', time: '2026-01-01T00:00:00Z', attributes: {} }] };
  const truncated = bare('gym.verify', '00000000000000a3', null, 0, 5, { traceId: 'd'.repeat(32), attributes: { 'nemo.span.truncated': true } });
  const headless = bare('POST /verify', '00000000000000a4', '00000000000000ff', 0, 5, { traceId: 'e'.repeat(32), kind: 'SERVER', status: { code: 'ERROR', message: 'judge down' } });
  const records = toRecords([...ok, ...noVerify, retried, evented, truncated, headless, ok[5]!]);
  // A SERVER span still open when its record was written (no end time).
  records.push({ ...records[0]!, spanId: '00000000000000a5', name: 'POST /run', kind: 'SERVER', ended: false, endNs: records[0]!.startNs, durationMs: 0 });
  const set = assembleTraces(records);
  const report = findAnomalies(set, findRollouts(set));

  it('counts each kind of anomaly', () => {
    assert.deepEqual(report.counts, {
      unclosed_span: 1,
      root_missing: 1,
      truncated_span: 1,
      orphan_span: 1,
      // the two copied CLIENT spans (retried, evented) never reached the model: no SERVER child
      missing_server_spans: 2,
      duplicate_span: 1,
      missing_verify: 1,
      error_span: 1,
      retry: 2,
    });
    assert.equal(report.total, 11);
  });

  it('names the spans and rollouts involved', () => {
    const mv = report.findings.find((f) => f.kind === 'missing_verify');
    assert.deepEqual(mv, { kind: 'missing_verify', traceId: noVerify[0]!.traceId, rolloutId: 'nv' });
    const orphan = report.findings.find((f) => f.kind === 'orphan_span');
    assert.equal(orphan?.kind === 'orphan_span' && orphan.parentSpanId, '00000000000000ff');
    const err = report.findings.find((f) => f.kind === 'error_span');
    assert.equal(err?.kind === 'error_span' && err.message, 'judge down');
  });

  it('reads retries from resend_count, retry attributes and retry events', () => {
    const [r] = toRecords([{ ...ok[2]!, attributes: { 'nemo.gym.http.retry_count': '3' }, events: [{ name: 'retry', time: '2026-01-01T00:00:00Z', attributes: {} }] }]);
    assert.equal(retryCount(r!), 3);
  });

  it('caps findings per kind but keeps the counts exact', () => {
    const spans = Array.from({ length: 5 }, (_, i) => bare('x', `00000000000001${i}0`, '00000000000000ff', 0, 1, { status: { code: 'ERROR' } }));
    const s = assembleTraces(toRecords(spans));
    const r = findAnomalies(s, [], { maxPerKind: 2 });
    assert.equal(r.counts.error_span, 5);
    assert.equal(r.findings.filter((f) => f.kind === 'error_span').length, 2);
  });
});

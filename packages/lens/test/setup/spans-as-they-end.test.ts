// Lean spans (gym's SERVER, CLIENT and endpoint spans) to the console: each line is encoded when
// its span ends, into the writer's lines not yet written, and those go to the stream a batch at a
// time; no batch processor holds the spans. Every span is written or counted lost, also under a
// backed-up stream; spans from the OpenTelemetry API still go through the batch processor.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { SpanKind, trace } from '@opentelemetry/api';
import { getLeanTracer } from '@gym/lens';
import { NemoLensConfig, setupTelemetry } from '@gym/lens/setup';
import { collectWarnings } from '../support/sinks.js';

const config = new NemoLensConfig({ enabled: true, exporter: 'console', metricsEnabled: false, serviceName: 'svc' });

/** A stream that keeps its chunks as text and holds every write callback until `flow()`, after which it holds none. */
function heldStream(): Writable & { text(): string; flow(): void } {
  let text = '';
  let held: Array<() => void> | undefined = [];
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer | string, _encoding, done) {
      text += String(chunk);
      if (held === undefined) done();
      else held.push(done);
    },
  });
  return Object.assign(stream, {
    text: () => text,
    flow() {
      const callbacks = held ?? [];
      held = undefined;
      for (const done of callbacks) done();
    },
  });
}

function endLeanSpans(count: number): void {
  const tracer = getLeanTracer('nemo.gym', '0.1.0');
  for (let i = 0; i < count; i++) tracer.startSpan(`POST /s${i}`, SpanKind.SERVER, undefined, { 'http.route': `/s${i}` }).end();
}

const spanLines = (text: string) => text.split('\n').filter((l) => l.startsWith('{"type":"span"'));

describe('lean spans written as they end', () => {
  it('hands a batch to the stream as soon as it is full, without waiting for the batch processor', async () => {
    const stream = heldStream();
    const handle = await setupTelemetry(config, {
      allowReinit: true,
      output: stream,
      ownScope: { name: 'nemo.gym', version: '0.1.0' },
      batch: { maxExportBatchSize: 4, scheduledDelayMillis: 600_000 },
      env: {},
    });
    endLeanSpans(10);
    // the first full batch went to the stream at once, the resource record first; the second waits
    // behind it (the stream has not called back), two lines wait for the next batch
    const lines = stream.text().split('\n').filter(Boolean);
    assert.equal(lines.length, 5);
    assert.match(lines[0]!, /^\{"type":"resource","service.name":"svc","process.pid":\d+,"scope":\{"name":"nemo.gym","version":"0.1.0"\}/);
    assert.deepEqual(
      spanLines(stream.text()).map((l) => (JSON.parse(l) as { name: string }).name),
      [0, 1, 2, 3].map((i) => `POST /s${i}`),
    );
    // an SDK span goes through the batch processor; its export writes the waiting lines first
    trace.getTracer('user code').startSpan('user span').end();
    stream.flow();
    await handle.forceFlush();
    const names = spanLines(stream.text()).map((l) => (JSON.parse(l) as { name: string; scope?: unknown }).name);
    assert.deepEqual(names, [...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `POST /s${i}`), 'user span']);
    await handle.shutdown();
    assert.deepEqual(handle.losses().spans, { accepted: 11, exported: 11, failed: 0, lost: 0 });
  });

  it('writes every line whole to a backed-up file stream and loses nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lens-as-they-end-'));
    try {
      const file = join(dir, 'spans.log');
      const stream = createWriteStream(file);
      const handle = await setupTelemetry(config, { allowReinit: true, output: stream, ownScope: { name: 'nemo.gym', version: '0.1.0' }, env: {} });
      // in one turn of the event loop: the file stream backs up after its first chunk
      endLeanSpans(20_000);
      await handle.shutdown();
      await new Promise((resolve) => stream.end(resolve));
      const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
      assert.equal(lines.filter((l) => l.startsWith('{"type":"resource"')).length, 1);
      const spans = lines.filter((l) => l.startsWith('{"type":"span"')).map((l) => JSON.parse(l) as { name: string; scope?: unknown });
      assert.equal(spans.length, 20_000);
      assert.equal(spans[19_999]!.name, 'POST /s19999');
      // every line states its scope, also the one its resource record states
      assert.ok(spans.every((s) => JSON.stringify(s.scope) === '{"name":"nemo.gym","version":"0.1.0"}'));
      assert.deepEqual(handle.losses().spans, { accepted: 20_000, exported: 20_000, failed: 0, lost: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts the spans it dropped when the stream stays backed up, and states the resource again after a drop', async () => {
    const seen = collectWarnings();
    try {
      const stream = heldStream();
      const handle = await setupTelemetry(config, { allowReinit: true, output: stream, env: {} });
      // the writer holds 100,000 lines behind a backed-up stream; beyond that, whole batches are dropped
      endLeanSpans(100_000 + 1_000);
      stream.flow();
      await handle.forceFlush();
      endLeanSpans(1);
      await handle.shutdown();
      const losses = handle.losses().spans;
      assert.equal(losses.accepted, 101_001);
      assert.ok(losses.lost > 0 && losses.lost % 256 === 0, `lost ${losses.lost}`);
      assert.equal(losses.exported + losses.lost, losses.accepted);
      assert.equal(spanLines(stream.text()).length, losses.exported);
      // the resource record went first, and again after the dropped batches (which may have held it)
      const resources = stream
        .text()
        .split('\n')
        .filter((l) => l.startsWith('{"type":"resource"'));
      assert.equal(resources.length, 2);
      await seen.settled();
      assert.match(seen.warnings.find((w) => w.code === 'LENS_W011')?.message ?? '', new RegExp(`${losses.lost} of 101001 spans`));
    } finally {
      seen.stop();
    }
  });
});

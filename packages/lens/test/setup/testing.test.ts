import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { trace } from '@opentelemetry/api';
import { captureSpans, parseJsonLines } from '@gym/lens/testing';

describe('@gym/lens/testing', () => {
  it('captures ended spans in memory and resets them', async () => {
    const capture = await captureSpans({ env: {} });
    try {
      trace.getTracer('t').startSpan('one').end();
      assert.deepEqual(
        (await capture.spans()).map((s) => s.name),
        ['one'],
      );
      capture.reset();
      trace.getTracer('t').startSpan('two').end();
      assert.deepEqual(
        (await capture.spans()).map((s) => s.name),
        ['two'],
      );
    } finally {
      await capture.shutdown();
    }
  });

  it('parses JSON lines, skipping blank lines and naming a bad line', () => {
    assert.deepEqual(parseJsonLines('{"a":1}\n\n  {"b":2}\n'), [{ a: 1 }, { b: 2 }]);
    assert.throws(() => parseJsonLines('{"a":1}\nnot json\n'), /Line 2 is not JSON/);
  });
});

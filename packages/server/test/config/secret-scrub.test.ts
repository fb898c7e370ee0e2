// A configured secret is found however it was echoed — raw, JSON-escaped
// once or twice, \uXXXX, URL-encoded as encodeURIComponent or application/x-www-form-urlencoded
// write it — in any output gym writes.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSecretScrubber, scrubJsonText, setProcessScrubber } from '../../src/config/secret-scrub.js';

const KEY = 'sk-"quoted"\\back!slash/ and *(x)~';

describe('createSecretScrubber', () => {
  const scrub = createSecretScrubber([KEY, 'plain-key-123456'])!;

  it('finds a key with " and \\ JSON-escaped once and twice (an upstream JSON error quoted in ours, or in a log line)', () => {
    const upstream = JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } });
    assert.equal(scrub(upstream), '{"error":{"message":"Incorrect API key provided: [REDACTED]"}}');
    const relayed = JSON.stringify({ detail: 'upstream said', bodyText: upstream });
    assert.equal(JSON.parse(scrub(relayed)).bodyText, '{"error":{"message":"Incorrect API key provided: [REDACTED]"}}');
    const logged = JSON.stringify({ msg: JSON.stringify({ bodyText: upstream }) });
    assert.doesNotMatch(scrub(logged), /quoted/);
  });

  it('finds a key URL-encoded by encodeURIComponent and as a form (+ for space, %21 for !), in either hex case', () => {
    assert.equal(scrub(`?key=${encodeURIComponent(KEY)}&x=1`), '?key=[REDACTED]&x=1');
    const form = new URLSearchParams({ key: KEY }).toString();
    assert.match(form, /\+/);
    assert.match(form, /%21/);
    assert.equal(scrub(form), 'key=[REDACTED]');
    assert.equal(scrub(`?key=${encodeURIComponent(KEY).toLowerCase().replace(/sk/, 'sk')}`.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())), '?key=[REDACTED]');
  });

  it('finds a key written with \\u escapes (Python json.dumps with ensure_ascii)', () => {
    const ascii = [...KEY].map((c) => (/[A-Za-z0-9]/.test(c) ? c : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)).join('');
    assert.equal(scrub(`"${ascii}"`), '"[REDACTED]"');
  });

  it('leaves text without a key alone, and replaces the raw key', () => {
    assert.equal(scrub('nothing to see: sk-other'), 'nothing to see: sk-other');
    assert.equal(scrub(`a ${KEY} b plain-key-123456`), 'a [REDACTED] b [REDACTED]');
  });
});

describe('scrubJsonText', () => {
  it('keeps a JSON line valid: the key in a value and in a JSON string inside it are both replaced', () => {
    setProcessScrubber(createSecretScrubber([KEY]));
    try {
      const row = JSON.stringify({ response: { output_text: `echo ${KEY}` }, nested: JSON.stringify({ k: KEY }) });
      const scrubbed = scrubJsonText(row);
      const parsed = JSON.parse(scrubbed) as { response: { output_text: string }; nested: string };
      assert.equal(parsed.response.output_text, 'echo [REDACTED]');
      assert.equal(parsed.nested, '{"k":"[REDACTED]"}');
    } finally {
      setProcessScrubber(undefined);
    }
  });

  it('returns the text unchanged when no scrubber is installed (no secret configured)', () => {
    const row = JSON.stringify({ response: KEY });
    assert.equal(scrubJsonText(row), row);
  });
});

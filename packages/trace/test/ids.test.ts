// Ids arrive as hex (ours, OTLP/JSON), `0x`-prefixed hex (the Python SDK's console output) and
// base64 (protobuf bytes through the receiver, some collectors' files): every form of the same id
// must read as the same lowercase hex, and nothing else may pass for an id.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { normalizeId } from '../src/read/ids.js';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';

describe('normalizeId', () => {
  it('reads hex, 0x-prefixed hex and base64 of the same id alike', () => {
    for (const [raw, bytes, want] of [
      [TRACE, 16, TRACE],
      [TRACE.toUpperCase(), 16, TRACE],
      [`0x${TRACE}`, 16, TRACE],
      [`0X${SPAN}`, 8, SPAN],
      [Buffer.from(TRACE, 'hex').toString('base64'), 16, TRACE],
      [Buffer.from(SPAN, 'hex').toString('base64'), 8, SPAN],
      [Buffer.from(TRACE, 'hex').toString('base64url'), 16, TRACE],
      // Python's hex() of an int without its leading zeros
      ['0xf067aa0ba902b7', 8, SPAN],
    ] as const) {
      assert.equal(normalizeId(raw, bytes), want, raw);
    }
  });

  it('reads base64 ids that begin with 0x or 0X (one in 2,048) as base64', () => {
    // seen from a real run through the receiver: these spans were dropped as having invalid ids
    assert.equal(normalizeId('0xkoLd7SJ+4=', 8), Buffer.from('0xkoLd7SJ+4=', 'base64').toString('hex'));
    assert.equal(normalizeId('0XdHa3sqW00=', 8), Buffer.from('0XdHa3sqW00=', 'base64').toString('hex'));
    let checked = 0;
    while (checked < 200) {
      const id = randomBytes(checked % 2 === 0 ? 16 : 8);
      const b64 = id.toString('base64');
      if (!/^0[xX]/.test(b64)) {
        // force the prefix: the first 12 bits of the id decide it ('0' = 110100, 'x' = 110001, 'X' = 010111)
        const lower = checked % 4 < 2;
        id[0] = lower ? 0xd3 : 0xd1;
        id[1] = (id[1]! & 0x0f) | (lower ? 0x10 : 0x70);
      }
      const forced = id.toString('base64');
      assert.match(forced, /^0[xX]/);
      assert.equal(normalizeId(forced, id.length as 8 | 16), id.toString('hex'), forced);
      checked++;
    }
  });

  it('refuses what is not an id', () => {
    for (const [raw, bytes] of [
      ['', 8],
      ['0'.repeat(32), 16],
      [`0x${'0'.repeat(16)}`, 8],
      [Buffer.alloc(8).toString('base64'), 8],
      ['not an id at all!', 8],
      [TRACE, 8],
      [Buffer.from(SPAN, 'hex').toString('base64'), 16],
      ['0x', 8],
      [42, 8],
      [null, 16],
    ] as const) {
      assert.equal(normalizeId(raw, bytes), null, String(raw));
    }
  });
});

/**
 * The session cookie's HMAC-SHA256 (RFC 2104) with the key's state computed once per server: the
 * hash of the key's inner and outer pads is kept, so that signing a session id (one block of
 * SHA-256 for an id up to 55 ASCII characters, one for the outer hash) costs two compressions in
 * JavaScript instead of a `createHmac` object, whose set-up in OpenSSL is most of its cost
 * (docs/decisions.md). Other ids go through `createHmac`.
 * @module
 */
import { createHash, createHmac } from 'node:crypto';

/** SHA-256's round constants. */
const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256's initial state. */
const IV = Int32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);

/** The longest id signed here: it, the `0x80` byte and the 8-byte length fit one 64-byte block. */
const MAX_FAST_LENGTH = 55;

/** The message schedule, reused. */
const W = new Int32Array(64);

/** One SHA-256 compression of the 16 words `block[0..16)` into `state`. */
function compress(state: Int32Array, block: Int32Array): void {
  for (let i = 0; i < 16; i++) W[i] = block[i]!;
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  let f = state[5]!;
  let g = state[6]!;
  let h = state[7]!;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
  state[5] = (state[5]! + f) | 0;
  state[6] = (state[6]! + g) | 0;
  state[7] = (state[7]! + h) | 0;
}

/** The SHA-256 state after the 64-byte block `key XOR pad` (the key padded with zeros). */
function padState(key: Buffer, pad: number): Int32Array {
  const block = new Int32Array(16);
  for (let i = 0; i < 64; i++) block[i >> 2]! |= ((key[i] ?? 0) ^ pad) << (24 - 8 * (i & 3));
  const state = IV.slice();
  compress(state, block);
  return state;
}

/**
 * Returns `sign(message)`: the base64url (unpadded) HMAC-SHA256 of the UTF-8 `message` under
 * `secret`, as `createHmac('sha256', secret).update(message).digest('base64url')`.
 */
export function createSessionMac(secret: Buffer): (message: string) => string {
  // a key longer than SHA-256's block is hashed first (RFC 2104)
  const key = secret.length > 64 ? createHash('sha256').update(secret).digest() : secret;
  const inner = padState(key, 0x36);
  const outer = padState(key, 0x5c);
  const state = new Int32Array(8);
  const block = new Int32Array(16);
  const digest = Buffer.alloc(32);
  return (message) => {
    const n = message.length;
    if (n > MAX_FAST_LENGTH) return createHmac('sha256', secret).update(message).digest('base64url');
    block.fill(0);
    for (let i = 0; i < n; i++) {
      const code = message.charCodeAt(i);
      // not ASCII: its UTF-8 bytes are not its characters
      if (code > 0x7f) return createHmac('sha256', secret).update(message).digest('base64url');
      block[i >> 2]! |= code << (24 - 8 * (i & 3));
    }
    block[n >> 2]! |= 0x80 << (24 - 8 * (n & 3));
    // the length in bits, after the 64 bytes of the pad: it fits the last word
    block[15] = (64 + n) * 8;
    state.set(inner);
    compress(state, block);
    // the outer hash's one block: the inner digest, 0x80, its length after the pad (96 bytes)
    for (let i = 0; i < 8; i++) block[i] = state[i]!;
    block.fill(0, 8);
    block[8] = 0x80000000 | 0;
    block[15] = 96 * 8;
    state.set(outer);
    compress(state, block);
    for (let i = 0; i < 8; i++) digest.writeInt32BE(state[i]!, i * 4);
    return digest.toString('base64url');
  };
}

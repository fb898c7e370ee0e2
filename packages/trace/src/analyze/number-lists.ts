/**
 * Append-only lists over typed arrays: tens of millions of durations or instants cost 8 bytes
 * each, where a JS array of bigints costs several times that.
 * @module
 */

/** Growing list of float64 values. */
export class Float64List {
  #buf = new Float64Array(16);
  length = 0;

  push(v: number): void {
    if (this.length === this.#buf.length) this.#buf = grow(this.#buf, new Float64Array(nextSize(this.#buf.length)));
    this.#buf[this.length++] = v;
  }

  /** Appends every value of `values`. */
  pushAll(values: Float64Array): void {
    if (this.length + values.length > this.#buf.length) this.#buf = grow(this.#buf, new Float64Array(Math.max(nextSize(this.#buf.length), this.length + values.length)));
    this.#buf.set(values, this.length);
    this.length += values.length;
  }

  /** The values, as a view over the list's storage (valid until the next push). */
  view(): Float64Array {
    return this.#buf.subarray(0, this.length);
  }
}

/** Growing list of int64 values (unix nanoseconds). */
export class BigInt64List {
  #buf = new BigInt64Array(16);
  length = 0;

  push(v: bigint): void {
    if (this.length === this.#buf.length) this.#buf = grow(this.#buf, new BigInt64Array(nextSize(this.#buf.length)));
    this.#buf[this.length++] = v;
  }

  /** Appends every value of `values`. */
  pushAll(values: BigInt64Array): void {
    if (this.length + values.length > this.#buf.length) this.#buf = grow(this.#buf, new BigInt64Array(Math.max(nextSize(this.#buf.length), this.length + values.length)));
    this.#buf.set(values, this.length);
    this.length += values.length;
  }

  /** The values, as a view over the list's storage (valid until the next push). */
  view(): BigInt64Array {
    return this.#buf.subarray(0, this.length);
  }
}

/** The values of `parts`, one after another, in a new array. */
export function joinFloat64(parts: readonly ArrayLike<number>[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, part) => n + part.length, 0));
  let filled = 0;
  for (const part of parts) {
    out.set(part, filled);
    filled += part.length;
  }
  return out;
}

// doubling while small, then by a quarter: tens of millions of values waste little memory
function nextSize(size: number): number {
  return size < 1 << 20 ? size * 2 : Math.ceil(size * 1.25);
}

function grow<T extends Float64Array | BigInt64Array>(from: T, to: T): T {
  (to as Float64Array).set(from as Float64Array);
  return to;
}

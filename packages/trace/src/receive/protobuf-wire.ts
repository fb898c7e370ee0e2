/**
 * Reading the protobuf wire format by hand: fields of one message as (number, wire type, where its
 * value is), for the OTLP trace decoder, which reads a message without building protobufjs
 * objects. Every read is bounds-checked; malformed input throws {@link WireError}.
 * @module
 */
import { utf8Slice } from '../read/buffer-slices.js';

/** The bytes of a request are not a well-formed protobuf message. */
export class WireError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Wire types (the low three bits of a field's tag). */
export const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;

const TWO_32 = 4294967296;

/**
 * A cursor over the fields of one message, `bytes[start, end)`. After {@link next} returns true,
 * `field` and `wireType` describe the field; read its value with one of the `read*` methods or
 * leave it, and the next call skips whatever was not read.
 */
export class FieldReader {
  readonly bytes: Buffer;
  readonly end: number;
  field = 0;
  wireType = 0;
  #pos: number;
  /** Where the current field's value starts and ends (ends known only for fixed and length-delimited ones). */
  #valueStart = 0;
  #valueEnd = 0;

  constructor(bytes: Buffer, start = 0, end = bytes.length) {
    this.bytes = bytes;
    this.#pos = start;
    this.end = end;
  }

  /** Moves to the next field; false at the end of the message. */
  next(): boolean {
    this.#pos = this.#valueEnd > this.#pos ? this.#valueEnd : this.#pos;
    if (this.#pos >= this.end) return false;
    const tag = this.#varint32();
    this.field = tag >>> 3;
    this.wireType = tag & 7;
    if (this.field === 0) throw new WireError(`field number 0 at byte ${this.#pos}`);
    this.#valueStart = this.#pos;
    switch (this.wireType) {
      case WIRE.varint:
        this.#skipVarint();
        this.#valueEnd = this.#pos;
        this.#pos = this.#valueStart;
        break;
      case WIRE.fixed64:
        this.#valueEnd = this.#within(this.#pos + 8);
        break;
      case WIRE.fixed32:
        this.#valueEnd = this.#within(this.#pos + 4);
        break;
      case WIRE.bytes: {
        const length = this.#varint32();
        this.#valueStart = this.#pos;
        this.#valueEnd = this.#within(this.#pos + length);
        break;
      }
      default:
        throw new WireError(`unsupported wire type ${this.wireType} of field ${this.field}`);
    }
    return true;
  }

  /** The current length-delimited field as a reader of the message it holds. */
  message(): FieldReader {
    return new FieldReader(this.bytes, this.#valueStart, this.#valueEnd);
  }

  /** Start and end of the current length-delimited field's bytes. */
  get valueStart(): number {
    return this.#valueStart;
  }
  get valueEnd(): number {
    return this.#valueEnd;
  }

  /** The current length-delimited field as UTF-8 text. */
  string(): string {
    return utf8Slice.call(this.bytes, this.#valueStart, this.#valueEnd);
  }

  /** The current varint field's low 32 bits as a signed integer (how int32 and enum fields read). */
  int32(): number {
    this.#pos = this.#valueStart;
    return this.#varint32() | 0;
  }

  /** The current varint field as a signed 64-bit integer. */
  int64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let p = this.#valueStart; p < this.#valueEnd; p++, shift += 7n) result |= BigInt(this.bytes[p]! & 0x7f) << shift;
    return BigInt.asIntN(64, result);
  }

  /** The current varint field as a boolean (its low 32 bits, as protobuf's decoders read it). */
  bool(): boolean {
    return this.int32() !== 0;
  }

  /** The current fixed64 field as an unsigned integer, in decimal. */
  fixed64Decimal(): string {
    const lo = this.bytes.readUInt32LE(this.#valueStart);
    const hi = this.bytes.readUInt32LE(this.#valueStart + 4);
    // below 2^53 a number holds it exactly; Unix nanoseconds of today are above
    return hi < 0x200000 ? String(hi * TWO_32 + lo) : this.bytes.readBigUInt64LE(this.#valueStart).toString();
  }

  /** The current fixed64 field as a double. */
  double(): number {
    return this.bytes.readDoubleLE(this.#valueStart);
  }

  #within(end: number): number {
    if (end > this.end) throw new WireError(`field ${this.field} runs past the end of its message (byte ${end} of ${this.end})`);
    return end;
  }

  #varint32(): number {
    let result = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (this.#pos >= this.end) throw new WireError('a varint runs past the end of its message');
      const b = this.bytes[this.#pos++]!;
      // bits past 32 are dropped, as protobuf does for 32-bit fields
      if (shift < 32) result |= (b & 0x7f) << shift;
      if (b < 0x80) return result >>> 0;
    }
    throw new WireError('a varint is longer than 10 bytes');
  }

  #skipVarint(): void {
    for (let n = 0; n < 10; n++) {
      if (this.#pos >= this.end) throw new WireError('a varint runs past the end of its message');
      if (this.bytes[this.#pos++]! < 0x80) return;
    }
    throw new WireError('a varint is longer than 10 bytes');
  }
}

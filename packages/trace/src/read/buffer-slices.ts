/**
 * Text cut from a Buffer without `toString`'s argument checks and encoding lookup, which cost as
 * much as the cut for the short strings read by the million (ids, attribute keys): Buffer's own
 * `hexSlice` and `utf8Slice` (not in the typings), or `toString` where the running Node lacks them.
 * @module
 */

type Slice = (this: Buffer, start: number, end: number) => string;

function ownSlice(name: 'hexSlice' | 'utf8Slice', encoding: BufferEncoding): Slice {
  const own = (Buffer.prototype as unknown as Partial<Record<typeof name, Slice>>)[name];
  return typeof own === 'function'
    ? own
    : function (this: Buffer, start: number, end: number) {
        return this.toString(encoding, start, end);
      };
}

/** `buffer.toString('hex', start, end)`, called as `hexSlice.call(buffer, start, end)`. */
export const hexSlice: Slice = ownSlice('hexSlice', 'hex');

/** `buffer.toString('utf8', start, end)`, called as `utf8Slice.call(buffer, start, end)`. */
export const utf8Slice: Slice = ownSlice('utf8Slice', 'utf8');

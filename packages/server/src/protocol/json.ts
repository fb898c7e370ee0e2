/**
 * A JSON object as rows and bodies carry it: the one shape every module that reads untyped data
 * starts from.
 * @module
 */

/** A parsed JSON object (not an array, not null). */
export type JsonObject = Record<string, unknown>;

/** True for a non-null, non-array object. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

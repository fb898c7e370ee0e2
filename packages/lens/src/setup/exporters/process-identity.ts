/**
 * A process's resource as the console record states it: the resource record, written once per
 * stream, and the identity every other line ends with (`service.name`, then `service.instance.id`
 * when the resource has one, else `process.pid`), by which a reader joins the line to the
 * resource record (format: docs/lens-setup.md, "console"). Both are serialised once per resource.
 * @module
 */
import type { Attributes } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';

/** The part of a resource the records need. */
export interface RecordResource {
  readonly attributes: Attributes;
}

/** A process's resource record and identity, serialised. */
export interface ProcessIdentity {
  /** The resource record (no newline). */
  readonly record: string;
  /** `,"service.name":…,"process.pid":…`: what every line of the process ends with, before its closing brace. */
  readonly tail: string;
}

/**
 * The resource record and identity of `resource`. `scope` (the scope of the process's own spans,
 * which their lines leave out) is stated in the resource record.
 */
export function processIdentity(resource: RecordResource, scope: InstrumentationScope | undefined): ProcessIdentity {
  const attributes = resource.attributes;
  const service = attributes['service.name'];
  const instance = attributes['service.instance.id'];
  const pid = attributes['process.pid'];
  let identity = `,"service.name":${JSON.stringify(typeof service === 'string' ? service : 'unknown_service')}`;
  if (typeof instance === 'string') identity += `,"service.instance.id":${JSON.stringify(instance)}`;
  const pidField = typeof pid === 'number' ? `,"process.pid":${pid}` : '';
  const tail = typeof instance === 'string' ? identity : identity + pidField;
  const scopeField = scope === undefined ? '' : `,"scope":${JSON.stringify({ name: scope.name, version: scope.version ?? null })}`;
  return { record: `{"type":"resource"${identity}${pidField}${scopeField},"attributes":${JSON.stringify(attributes)}}`, tail };
}

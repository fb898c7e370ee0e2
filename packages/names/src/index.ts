/**
 * `@gym/names`: the naming contract of gym telemetry. The writers (`@gym/lens`, `@gym/runtime`) and
 * the reader (`@gym/trace`) import every span name, attribute key, metric name, unit and console
 * record field from here, so what is written is what is read. Constants only: no dependencies, no
 * side effects.
 * @module
 */
export { ATTR } from './attributes.js';
export { REDACTED } from './redaction.js';
export type { AttributeKey } from './attributes.js';
export { SPAN, SPAN_EVENT } from './spans.js';
export { GYM_SCOPE, METRIC, UNIT } from './metrics.js';
export { CONSOLE_IDENTITY_FIELDS, CONSOLE_RESOURCE_TYPE, CONSOLE_SPAN_FIELDS, CONSOLE_SPAN_OPTIONAL_FIELDS, CONSOLE_SPAN_TYPE } from './console-record.js';
export { RUN_MANIFEST_FILE } from './run-manifest.js';
export type { RunManifest } from './run-manifest.js';
export type { ConsoleResourceRecord, ConsoleSpanRecord, ProcessIdentityFields, RecordAttributes, RecordScope } from './console-record.js';

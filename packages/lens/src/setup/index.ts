/**
 * The setup half of lens: configuration, `setupTelemetry`, exporters, resource detection and the
 * pino integration. Importing it loads no OpenTelemetry SDK; `setupTelemetry` loads it on demand.
 * @module
 */
export { NemoLensConfig, EXPORTER_NAMES } from './config.js';
export type { NemoLensConfigFields } from './config.js';
export { BOOLEAN_SPELLINGS, parseBoolean, readEnv } from './env.js';
export type { Env } from './env.js';
export { LensConfigError, LensError, LensSetupError, LENS_ERRORS, LENS_ERROR_TABLE } from './errors.js';
export type { LensErrorCode } from './errors.js';
export { setupTelemetry } from './setup-telemetry.js';
export type { BatchOptions, SetupTelemetryOptions, TelemetryHandle } from './types.js';
export type { LossSignal, SignalLosses, TelemetryLosses } from './loss-tally.js';
export { ensureRunId } from './run-id.js';
export { TRUNCATED, TRUNCATED_REASON } from './open-span-closer.js';
export { detectResource, LENS_VERSION, resolveResourceAttributes } from './resources/detect.js';
export type { DetectResourceOptions, ResolveResourceOptions } from './resources/detect.js';
export { formatOtelResourceAttributes, parseOtelResourceAttributes } from './resources/otel-resource-attributes.js';
export { detectSlurm } from './resources/slurm.js';
export { detectKubernetes } from './resources/kubernetes.js';
export { lensPinoOptions, traceMixin } from './pino.js';
export type { LensPinoOptions, LensPinoSettings } from './pino.js';
export type { OutputStream } from './exporters/json-lines-writer.js';

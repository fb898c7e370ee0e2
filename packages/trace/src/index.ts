/**
 * `@gym/trace`: reads gym telemetry (console JSON lines, the Python SDK console shape, OTLP/JSON),
 * assembles traces across processes, and answers where each rollout spent its time. The root holds
 * what the library use of docs/trace.md and gym's own CLI call: the readers, the analyses of a
 * rollout, and each `gym trace` command as a function; the rest is internal to the package.
 * @module
 */
export { isTruncated } from './span-record.js';
export type { SpanRecord } from './span-record.js';
export { TRACE_ERRORS, TraceError, TraceUserError } from './errors.js';
export type { TraceErrorCode } from './errors.js';

export { readSpans } from './read/read-spans.js';
export type { ReadOptions, ReadResult } from './read/read-spans.js';
export type { MetricPoint } from './read/metric-points.js';
export { expandPaths } from './read/expand-paths.js';

export { assembleTraces } from './assemble/assemble-traces.js';
export type { SpanNode, Trace, TraceSet } from './assemble/trace-model.js';
export { findRollouts, rolloutIdOf, rewardOf } from './assemble/rollouts.js';
export type { Rollout } from './assemble/rollouts.js';

export { attributeRollout } from './analyze/attribution.js';
export type { Attribution, NetworkHop } from './analyze/attribution.js';
export { hopTimeline } from './analyze/hop-timeline.js';
export { verdictOf } from './analyze/verdict.js';
export type { RolloutVerdict } from './analyze/verdict.js';
export { buildSaturation } from './analyze/saturation.js';
export type { SaturationData } from './analyze/saturation.js';
export type { ServiceLoad } from './analyze/saturation-window.js';
export { findBottleneck } from './analyze/bottleneck.js';
export type { Bottleneck } from './analyze/bottleneck.js';
export { findAnomalies } from './analyze/anomalies.js';
export type { AnomalyReport } from './analyze/anomalies.js';

export { renderAttribution } from './render/why.js';
export { diagnosisSentence } from './render/diagnosis.js';
export { outputWidth, useColor } from './render/format.js';

export type { CommandOutput } from './commands/output.js';
export { show } from './commands/show.js';
export type { ShowOptions } from './commands/show.js';
export { why } from './commands/why.js';
export type { WhyOptions } from './commands/why.js';
export { stats } from './commands/stats.js';
export type { StatsOptions } from './commands/stats.js';
export { anomalies } from './commands/anomalies.js';
export type { AnomaliesOptions } from './commands/anomalies.js';
export { convert } from './commands/convert.js';
export type { ConvertOptions } from './commands/convert.js';
export { report } from './commands/report.js';
export type { ReportOptions } from './commands/report.js';
export { receive } from './commands/receive.js';
export type { ReceiveOptions } from './commands/receive.js';
export { sql } from './commands/sql.js';
export type { SqlOptions } from './commands/sql.js';
export { top } from './commands/top.js';
export type { TopOptions } from './commands/top.js';
export { push } from './commands/push.js';
export type { PushOptions } from './commands/push.js';

export { startOtlpReceiver } from './receive/receiver.js';
export type { OtlpReceiver, OtlpReceiverOptions } from './receive/receiver.js';

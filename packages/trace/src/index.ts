/**
 * `@gym/trace`: reads gym telemetry (console JSON lines, the Python SDK console shape, OTLP/JSON),
 * assembles traces across processes, and answers where each rollout spent its time.
 * @module
 */
export { ATTR, SPAN, isTruncated, nsToMs } from './span-record.js';
export type { Attributes, AttributeValue, SpanEvent, SpanKindName, SpanLink, SpanRecord, SpanResource, SpanSource, StatusCodeName } from './span-record.js';
export { TRACE_ERROR_CODES, TRACE_ERRORS, TraceError, TraceUserError } from './errors.js';
export type { TraceErrorCode } from './errors.js';

export { readSpans, forEachSpan } from './read/read-spans.js';
export type { ReadOptions, ReadProgress, ReadResult } from './read/read-spans.js';
export type { MetricPoint } from './read/metric-points.js';
export type { ReadStats, MalformedExample } from './read/read-stats.js';
export { expandPaths, TELEMETRY_EXTENSIONS } from './read/expand-paths.js';
export type { InputFile } from './read/expand-paths.js';
export { normalizeId } from './read/ids.js';
export { isoToNs, nsToIso } from './read/time.js';

export { assembleTraces } from './assemble/assemble-traces.js';
export type { DuplicateSpan, SpanNode, Trace, TraceSet } from './assemble/trace-model.js';
export { envelopeOf, findRollouts, outermostOf, rolloutIdOf, rewardOf, subtree } from './assemble/rollouts.js';
export type { Rollout } from './assemble/rollouts.js';
export { lookupId, findTrace, closestIds } from './assemble/find.js';
export type { LookupResult } from './assemble/find.js';

export { selfTimeNs } from './analyze/self-time.js';
export { criticalPath } from './analyze/critical-path.js';
export type { CriticalPath, CriticalSegment } from './analyze/critical-path.js';
export { buildSpanTree } from './analyze/span-tree.js';
export type { SpanTree, SpanTreeOptions, TreeRow } from './analyze/span-tree.js';
export { TIME_CATEGORIES, categorizeSubtree, ownCategory, routeOf } from './analyze/categorize.js';
export type { TimeCategory } from './analyze/categorize.js';
export { attributeRollout, attributeTime } from './analyze/attribution.js';
export type { Attribution, AttributionOptions, CriticalSpanShare, NetworkHop } from './analyze/attribution.js';
export { clientPhasesOf, PHASE_ATTR } from './analyze/client-phases.js';
export type { ClientPhases } from './analyze/client-phases.js';
export { hopTimeline, HOP_PHASES } from './analyze/hop-timeline.js';
export type { HopPhase, HopTimeline } from './analyze/hop-timeline.js';
export { verdictOf, verdictLabel, isFailed } from './analyze/verdict.js';
export type { RolloutVerdict, VerdictStatus } from './analyze/verdict.js';
export { buildSaturation } from './analyze/saturation.js';
export type { ProcessSaturation, SaturationData, Sample, ServerMemory } from './analyze/saturation.js';
export { loadInWindow } from './analyze/saturation-window.js';
export type { ServiceLoad } from './analyze/saturation-window.js';
export { findBottleneck } from './analyze/bottleneck.js';
export type { Bottleneck, Cause, CauseKind } from './analyze/bottleneck.js';
export { findMissingServerSpans } from './analyze/missing-servers.js';
export type { MissingServerSpans } from './analyze/missing-servers.js';
export { connectionsOf } from './analyze/cold-start.js';
export type { RolloutConnections } from './analyze/cold-start.js';
export { summarizeAttributions } from './analyze/attribution-summary.js';
export type { AttributionSummary } from './analyze/attribution-summary.js';
export { percentile, summarizeDurations } from './analyze/percentiles.js';
export type { DurationSummary } from './analyze/percentiles.js';
export { computeStats, parseGrouping } from './analyze/stats.js';
export type { SpanStats, StatsGroup, StatsGrouping } from './analyze/stats.js';
export { compareStats } from './analyze/compare.js';
export type { ComparisonRow, StatsComparison } from './analyze/compare.js';
export { ANOMALY_KINDS, findAnomalies } from './analyze/anomalies.js';
export type { Anomaly, AnomalyKind, AnomalyOptions, AnomalyReport } from './analyze/anomalies.js';
export { retryCount } from './analyze/retries.js';

export { renderTreeText, renderTreeMarkdown, treeToJson } from './render/tree.js';
export type { TreeRenderOptions } from './render/tree.js';
export { renderAttribution, renderAttributionSummary } from './render/why.js';
export type { WhyContext } from './render/why.js';
export { diagnosisSentence } from './render/diagnosis.js';
export { renderStats, renderComparison } from './render/stats.js';
export { renderAnomalies } from './render/anomalies.js';
export { formatMs, displayService, toJson, outputWidth, useColor } from './render/format.js';
export { toOtlpJsonLines, toOtlpSpan } from './write/otlp-json.js';
export type { OtlpWriteOptions } from './write/otlp-json.js';

export { processOutput } from './commands/output.js';
export type { CommandOutput, OutputFormat } from './commands/output.js';
export type { InputOptions } from './commands/load.js';
export { show } from './commands/show.js';
export { why } from './commands/why.js';
export { stats } from './commands/stats.js';
export { anomalies } from './commands/anomalies.js';
export { convert } from './commands/convert.js';
export { report } from './commands/report.js';
export { receive } from './commands/receive.js';
export { sql } from './commands/sql.js';
export { top } from './commands/top.js';
export { push, PUSH_PROTOCOLS } from './commands/push.js';
export { readInBatches, BATCH_ENV, DEFAULT_BATCH_MIB } from './commands/load-batches.js';
export type { Batch, BatchedRead } from './commands/load-batches.js';
// the threads that read a run are DuckDB's now (`GYM_TRACE_THREADS`); the name is kept
export { THREADS_ENV as TRACE_WORKERS_ENV } from './store/duck.js';
export { StatsAccumulator } from './analyze/stats.js';
export { AnomalyAccumulator } from './analyze/anomalies.js';
export { AttributionTotals } from './analyze/attribution-summary.js';
export { BottleneckAccumulator } from './analyze/bottleneck.js';
export type { ShowOptions } from './commands/show.js';
export type { WhyOptions } from './commands/why.js';
export type { StatsOptions } from './commands/stats.js';
export type { AnomaliesOptions } from './commands/anomalies.js';
export type { ConvertOptions } from './commands/convert.js';
export type { ReportOptions } from './commands/report.js';
export type { ReceiveOptions } from './commands/receive.js';
export type { SqlOptions } from './commands/sql.js';
export type { TopOptions } from './commands/top.js';
export type { PushOptions, PushProtocol } from './commands/push.js';

export { buildReportData, DEFAULT_MAX_ROWS, ReportBuilder } from './report/report-data.js';
export type { ReportData, ReportDataOptions, ReportDetail, ReportRow, ReportSpan, ReportStat } from './report/report-data.js';
export type { RunView } from './report/run-view.js';
export { renderReportHtml, embedJson } from './report/page.js';
export { startOtlpReceiver, DEFAULT_MAX_BODY_BYTES } from './receive/receiver.js';
export type { OtlpReceiver, OtlpReceiverOptions } from './receive/receiver.js';
export type { ExportEvent, ReceiverCounts } from './receive/ingest.js';
export { serviceFileName } from './receive/service-files.js';

/**
 * Renders an anomaly report: counts per kind, then up to 10 examples per kind.
 * @module
 */
import { ANOMALY_KINDS } from '../analyze/anomalies.js';
import type { Anomaly, AnomalyKind, AnomalyReport } from '../analyze/anomalies.js';
import { displayService, markdownTable, textTable } from './format.js';

const TITLE: Record<AnomalyKind, string> = {
  unclosed_span: 'spans that never ended',
  root_missing: 'traces whose root span is missing',
  truncated_span: 'truncated spans (still open at telemetry shutdown)',
  orphan_span: 'orphan spans (parent not in the input)',
  duplicate_span: 'duplicate spans (de-duplicated)',
  missing_server_spans: "SERVER spans missing (a callee's log file cut or lost)",
  missing_verify: 'rollouts without verification (no gym.verify span, /verify call or reward)',
  error_span: 'error spans',
  retry: 'retried requests',
};

/** Output style of the anomaly renderer. */
export type AnomalyFormat = 'text' | 'markdown';

/** Renders the report; says so plainly when there is nothing to report. */
export function renderAnomalies(report: AnomalyReport, format: AnomalyFormat = 'text', examplesPerKind = 10): string {
  if (report.total === 0) return 'No anomalies found.\n';
  const table = format === 'markdown' ? markdownTable : textTable;
  const rows = ANOMALY_KINDS.filter((k) => report.counts[k] > 0).map((k) => [k, String(report.counts[k]), TITLE[k]]);
  const parts = [format === 'markdown' ? `### ${report.total} anomalies\n\n` : `${report.total} anomalies\n\n`, table(['kind', 'count', 'what'], rows, ['l', 'r', 'l'])];
  for (const kind of ANOMALY_KINDS) {
    const items = report.findings.filter((f) => f.kind === kind).slice(0, examplesPerKind);
    if (items.length === 0) continue;
    parts.push(format === 'markdown' ? `\n#### ${TITLE[kind]}\n\n` : `\n${TITLE[kind]}:\n`);
    for (const f of items) parts.push(`${format === 'markdown' ? '- ' : '  '}${describe(f)}\n`);
    // missing SERVER spans are listed per callee, so their count is not a number of findings
    const more = kind === 'missing_server_spans' ? report.findings.filter((f) => f.kind === kind).length - items.length : report.counts[kind] - items.length;
    if (more > 0) parts.push(`${format === 'markdown' ? '- ' : '  '}… and ${more} more\n`);
  }
  return parts.join('');
}

function describe(a: Anomaly): string {
  switch (a.kind) {
    case 'truncated_span':
    case 'unclosed_span':
      return `${a.name} (${displayService(a.service)}) trace ${a.traceId} span ${a.spanId} at ${a.source.file}:${a.source.line}`;
    case 'orphan_span':
      return `${a.name} (${displayService(a.service)}) trace ${a.traceId} span ${a.spanId}: parent ${a.parentSpanId} missing — ${a.source.file}:${a.source.line}`;
    case 'duplicate_span':
      return `trace ${a.traceId} span ${a.spanId}: kept ${a.kept.file}:${a.kept.line}, dropped ${a.dropped.file}:${a.dropped.line}`;
    case 'missing_verify':
      return `rollout ${a.rolloutId} (trace ${a.traceId})`;
    case 'missing_server_spans': {
      const e = a.examples[0];
      // a server killed (kill -9, OOM) loses the spans it had not exported yet: as common as a lost
      // file; a server that never traces (a Python server without nemo-lens) is the most common of all
      const where = a.calleeSeen
        ? 'its other spans are in the input: its log file was cut, or it was killed before writing these'
        : 'no span of it is in the input: it runs without tracing (a Python server writes spans only with nemo-lens installed in its environment), its log file is missing, or it was killed before writing any';
      return `${a.count} SERVER span${a.count === 1 ? '' : 's'} missing from ${displayService(a.callee)} — calls from ${a.from.map(displayService).join(', ')}; ${where}${e === undefined ? '' : ` (e.g. trace ${e.traceId} span ${e.spanId})`}`;
    }
    case 'retry':
      return `${a.name} ${a.url ?? ''} retried ${a.retries}× — trace ${a.traceId} span ${a.spanId}`.replace(/ {2}/g, ' ');
    case 'error_span':
      return `${a.name} (${displayService(a.service)})${a.message === null ? '' : `: ${a.message}`} — trace ${a.traceId} span ${a.spanId}`;
    case 'root_missing':
      return `trace ${a.traceId} (${a.spanCount} spans, every root is an orphan)`;
  }
}

/**
 * Rollout evidence for `gym trace show` and the report: read from a run's rollouts JSONL (the
 * `ng_trajectory` collection folded in from the model-call capture files) and its health verdicts
 * (`<stem>_rollout_verdicts.jsonl`), and joined to a rollout by its rollout id, never by trace id:
 * files of a run where many rollouts share a trace (the `default` preset before one trace per
 * rollout) name one trace id on many rows. Prompt and output content shown here comes only from
 * those files, never from spans. Long texts are cut.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';

type Obj = Record<string, unknown>;

/** Longest text kept per item (arguments, outputs, message text). */
export const MAX_EVIDENCE_TEXT = 4000;

/** One captured model call, ready to show. */
export interface EvidenceCall {
  modelCallId: string;
  invocationId: string | null;
  model: string | null;
  statusCode: number | null;
  finishReason: string | null;
  errorCategory: string | null;
  durationMs: number | null;
  tokens: { prompt: number | null; completion: number | null; reasoning: number | null; total: number | null };
  /** `role: text` lines of the request's input items (the last {@link MAX_INPUT_ITEMS}). */
  input: string[];
  /** The response's output items, one line each. */
  output: string[];
  spanId: string | null;
}

/** One tool call. */
export interface EvidenceTool {
  toolCallId: string;
  name: string | null;
  status: string;
  durationMs: number | null;
  arguments: string;
  output: string;
}

/** The evidence of one rollout. */
export interface RolloutEvidence {
  rolloutId: string;
  traceId: string | null;
  verdict: { verdict: string; findings: { check: string; locator: string; detail: string }[]; unobserved: string[] } | null;
  calls: EvidenceCall[];
  tools: EvidenceTool[];
  gaps: { code: string; invocationId: string | null; detail: string | null }[];
}

/** Evidence by rollout id. */
export interface EvidenceIndex {
  byRollout: Map<string, RolloutEvidence>;
}

const MAX_INPUT_ITEMS = 12;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Cuts `text` to {@link MAX_EVIDENCE_TEXT} characters. */
export function cut(text: string): string {
  return text.length > MAX_EVIDENCE_TEXT ? `${text.slice(0, MAX_EVIDENCE_TEXT)}… (${text.length - MAX_EVIDENCE_TEXT} more characters)` : text;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => str(obj(p)['text']) ?? str(obj(p)['refusal']) ?? '').join('');
  return '';
}

/** One line per Responses item: `user: …`, `function_call get_weather({"city":"sf"})`, `function_call_output: …`. */
export function itemLine(item: unknown): string {
  const i = obj(item);
  const type = str(i['type']) ?? 'message';
  if (type === 'message' || i['role'] !== undefined) return cut(`${str(i['role']) ?? 'assistant'}: ${textOf(i['content'])}`);
  if (type === 'function_call') return cut(`function_call ${str(i['name']) ?? '?'}(${str(i['arguments']) ?? ''})`);
  if (type === 'function_call_output') return cut(`function_call_output: ${typeof i['output'] === 'string' ? i['output'] : JSON.stringify(i['output'])}`);
  if (type === 'reasoning') return cut(`reasoning: ${(Array.isArray(i['summary']) ? i['summary'] : []).map((s) => str(obj(s)['text']) ?? '').join(' ')}`);
  return cut(`${type}: ${JSON.stringify(i)}`);
}

function inputLines(request: unknown): string[] {
  const input = obj(request)['input'] ?? obj(request)['messages'];
  if (typeof input === 'string') return [cut(`user: ${input}`)];
  if (!Array.isArray(input)) return [];
  const lines = input.map(itemLine);
  return lines.length > MAX_INPUT_ITEMS ? [`… ${lines.length - MAX_INPUT_ITEMS} earlier item(s)`, ...lines.slice(-MAX_INPUT_ITEMS)] : lines;
}

function outputLines(response: unknown): string[] {
  const r = obj(response);
  if (Array.isArray(r['output'])) return r['output'].map(itemLine);
  if (Array.isArray(r['choices'])) return r['choices'].map((c) => itemLine({ role: 'assistant', ...obj(obj(c)['message']) }));
  const error = obj(r['error']);
  return error['message'] !== undefined ? [cut(`error: ${String(error['message'])}`)] : [];
}

/** The evidence of one rollout row, or null when it carries no `ng_trajectory`. */
export function evidenceOfRow(row: Obj, verdict: RolloutEvidence['verdict']): RolloutEvidence | null {
  const t = obj(row['ng_trajectory']);
  if (!Array.isArray(t['model_calls'])) return null;
  const calls = (t['model_calls'] as unknown[]).map((raw): EvidenceCall => {
    const c = obj(raw);
    const meta = obj(c['response_metadata']);
    const tokens = obj(c['token_stats']);
    return {
      modelCallId: str(c['model_call_id']) ?? '',
      invocationId: str(c['invocation_id']),
      model: str(meta['model']),
      statusCode: num(meta['status_code']),
      finishReason: str(meta['finish_reason']),
      errorCategory: str(meta['error_category']),
      durationMs: num(c['duration_ms']),
      tokens: { prompt: num(tokens['prompt_tokens']), completion: num(tokens['completion_tokens']), reasoning: num(tokens['reasoning_tokens']), total: num(tokens['total_tokens']) },
      input: inputLines(c['request']),
      output: outputLines(c['response']),
      spanId: str(c['span_id']),
    };
  });
  const tools = (Array.isArray(t['tool_calls']) ? (t['tool_calls'] as unknown[]) : []).map((raw): EvidenceTool => {
    const c = obj(raw);
    const text = (v: unknown) => cut(typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
    return {
      toolCallId: str(c['tool_call_id']) ?? '',
      name: str(c['tool_name']),
      status: str(c['status']) ?? 'unknown',
      durationMs: num(c['duration_ms']),
      arguments: text(c['arguments']),
      output: text(c['output']),
    };
  });
  const gaps = (Array.isArray(t['gaps']) ? (t['gaps'] as unknown[]) : []).map((g) => ({
    code: str(obj(g)['code']) ?? 'unknown',
    invocationId: str(obj(g)['invocation_id']),
    detail: str(obj(g)['detail']),
  }));
  return { rolloutId: str(t['rollout_id']) ?? rowRolloutId(row) ?? 'unknown', traceId: str(row['trace_id']), verdict, calls, tools, gaps };
}

/** `<task>-<rollout>[-a<n>]` of a row's indices, as collection derives a rollout id; null without them. */
function rowRolloutId(row: Obj): string | null {
  const task = num(row['_ng_task_index']);
  const rollout = num(row['_ng_rollout_index']);
  if (task === null || rollout === null) return null;
  const attempt = num(row['_ng_attempt_index']);
  return attempt !== null && attempt > 0 ? `${task}-${rollout}-a${attempt}` : `${task}-${rollout}`;
}

/**
 * Reads rollouts JSONL files (and their verdict files, when a health check wrote them).
 * @throws {TraceUserError} `GYM_TRACE_PATH_NOT_FOUND` for a file that cannot be read.
 */
export function readEvidence(files: readonly string[]): EvidenceIndex {
  const index: EvidenceIndex = { byRollout: new Map() };
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new TraceUserError(TRACE_ERROR_CODES.pathNotFound, `Cannot read rollouts file ${file} (--evidence): ${(error as Error).message}`, { cause: error });
    }
    const verdicts = readVerdicts(file);
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let row: Obj;
      try {
        row = obj(JSON.parse(line));
      } catch {
        continue;
      }
      const rolloutId = str(obj(row['ng_trajectory'])['rollout_id']);
      const evidence = evidenceOfRow(row, rolloutId === null ? null : (verdicts.get(rolloutId) ?? null));
      if (evidence === null) continue;
      index.byRollout.set(evidence.rolloutId, evidence);
    }
  }
  return index;
}

/** The evidence of a rollout, by its rollout id; none for a view that is not a rollout. */
export function findEvidence(index: EvidenceIndex, ids: { rolloutId: string | null }): RolloutEvidence | undefined {
  return ids.rolloutId === null ? undefined : index.byRollout.get(ids.rolloutId);
}

function readVerdicts(rolloutsFile: string): Map<string, RolloutEvidence['verdict']> {
  const path = join(dirname(rolloutsFile), `${basename(rolloutsFile, extname(rolloutsFile))}_rollout_verdicts.jsonl`);
  const out = new Map<string, RolloutEvidence['verdict']>();
  if (!existsSync(path)) return out;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    try {
      const v = obj(JSON.parse(line));
      if (typeof v['rollout_id'] === 'string') out.set(v['rollout_id'], { verdict: String(v['verdict']), findings: (v['findings'] as never) ?? [], unobserved: (v['unobserved'] as never) ?? [] });
    } catch {
      // a blank or damaged line: no verdict for it
    }
  }
  return out;
}

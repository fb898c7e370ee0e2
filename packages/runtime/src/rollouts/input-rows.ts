/**
 * Reading the input JSONL of a collection run: every row must be a task row (a
 * `responses_create_params` object; `agent_ref`, `_ng_task_index`, `_ng_rollout_index` of their
 * types when present). Bad lines are reported with their line numbers and either
 * skipped (the default, with a warning) or fail the run (`strict`).
 * @module
 */
import { readFileSync } from 'node:fs';
import { checkJsonShape } from '@gym/server/internal/server/json-body.js';
import { describeMalformed, parseJsonlObjects } from './jsonl.js';
import { FAILURE_CODES, RolloutInputError } from './errors.js';
import { isJsonObject } from './types.js';
import { RAW_TASK_ROW, TASK_ROW } from '@gym/server/internal/protocol/task-row.js';
import type { JsonlLine, MalformedLine } from './jsonl.js';
import type { JsonObject } from './types.js';

/** Valid input rows and the malformed lines that were skipped. */
export interface InputRows {
  rows: JsonlLine[];
  malformed: MalformedLine[];
}

/**
 * Parses input JSONL text. With `promptInput` (a prompt config will build the input), a row
 * may lack `responses_create_params`. With `strict`, any malformed line throws `GYM_ROLLOUT_INPUT_MALFORMED`
 * listing the line numbers; otherwise malformed lines are returned for the caller to warn about.
 */
export function parseInputRows(text: string, source: string, strict = false, options: { promptInput?: boolean } = {}): InputRows {
  const parsed = parseJsonlObjects(text);
  const rows: JsonlLine[] = [];
  const malformed = [...parsed.malformed];
  // with a prompt config the prompt builds the params: a raw row may have none
  const schema = options.promptInput === true ? RAW_TASK_ROW : TASK_ROW;
  for (const line of parsed.lines) {
    if (!isJsonObject(line.value['responses_create_params']) && !(options.promptInput === true && line.value['responses_create_params'] === undefined)) {
      malformed.push({ lineNumber: line.lineNumber, reason: 'no "responses_create_params" object' });
      continue;
    }
    const row = schema.safeParse(line.value);
    if (!row.success) {
      const issue = row.error.issues[0]!;
      malformed.push({ lineNumber: line.lineNumber, reason: `${issue.path.join('.')}: ${issue.message}` });
      continue;
    }
    // what every server would refuse (and copying code downstream could not handle) is caught here
    const problem = checkJsonShape(line.value);
    if (problem !== undefined) {
      malformed.push({ lineNumber: line.lineNumber, reason: `${problem.msg}${problem.loc.length > 0 ? ` (at ${problem.loc.join('.')})` : ''}` });
      continue;
    }
    rows.push(line);
  }
  malformed.sort((a, b) => a.lineNumber - b.lineNumber);
  if (strict && malformed.length > 0) {
    throw new RolloutInputError('GYM_ROLLOUT_INPUT_MALFORMED', `${source} has ${malformed.length} malformed line(s): ${describeMalformed(malformed)}. Fix them, or drop --strict-input to skip them.`);
  }
  return { rows, malformed };
}

/** Reads and parses an input JSONL file; throws `GYM_ROLLOUT_INPUT_NOT_FOUND` when it cannot be read. */
export function readInputRows(path: string, strict = false, options: { promptInput?: boolean } = {}): InputRows {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RolloutInputError('GYM_ROLLOUT_INPUT_NOT_FOUND', `Cannot read the input file '${path}' (${(error as Error).message}). Check --input.`, { cause: error });
  }
  return parseInputRows(text, path, strict, options);
}

/**
 * The failures-sidecar row of a skipped input line: no rollout key (so `--resume` never counts it),
 * the line number and why, so nothing of the input disappears without a trace in the run's files.
 */
export function inputLineFailure(file: string, line: MalformedLine): JsonObject {
  return { _ng_input_line: line.lineNumber, error: { code: FAILURE_CODES.inputLine, message: `line ${line.lineNumber} of ${file} was skipped: ${line.reason}` } };
}

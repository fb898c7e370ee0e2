/**
 * Prompt configs, as the original: a YAML file with a required `user` template and an optional
 * `system` one. At collection time each row's top-level fields fill the `{field}` placeholders
 * (`{{` and `}}` are literal braces) and the messages become `responses_create_params.input`. A
 * row that already has an `input` cannot take a prompt: the two are exclusive.
 * @module
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { RolloutInputError } from './errors.js';
import { isJsonObject } from './types.js';
import type { JsonObject } from './types.js';

/** A parsed prompt config. */
export interface PromptConfig {
  /** Where it was read from, for messages. */
  source: string;
  user: string;
  system?: string;
}

/**
 * Reads and checks a prompt config file (`path` already resolved).
 * @throws `GYM_ROLLOUT_PROMPT_CONFIG` when the file is missing, is not YAML, or lacks a string `user`.
 */
export function loadPromptConfig(path: string, label = path): PromptConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new RolloutInputError('GYM_ROLLOUT_PROMPT_CONFIG', `Cannot read the prompt config '${label}' (${(error as Error).message}). Check --prompt-config / prompt_config.`, { cause: error });
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    throw new RolloutInputError('GYM_ROLLOUT_PROMPT_CONFIG', `The prompt config '${label}' is not valid YAML: ${(error as Error).message}`, { cause: error });
  }
  const problems: string[] = [];
  if (!isJsonObject(data)) problems.push('it must be a map with a `user` template (and optionally `system`)');
  else {
    if (typeof data['user'] !== 'string') problems.push('`user` must be a string template');
    if (data['system'] !== undefined && data['system'] !== null && typeof data['system'] !== 'string') problems.push('`system` must be a string template when present');
  }
  if (problems.length > 0 || !isJsonObject(data)) throw new RolloutInputError('GYM_ROLLOUT_PROMPT_CONFIG', `The prompt config '${label}' is invalid: ${problems.join('; ')}.`);
  const system = data['system'];
  return { source: label, user: data['user'] as string, ...(typeof system === 'string' ? { system } : {}) };
}

/**
 * Throws `GYM_ROLLOUT_PROMPT_CONFIG` listing the (0-based) indices of rows that already carry
 * `responses_create_params.input`, as the original does before applying a prompt.
 */
export function checkPromptCompatible(rows: readonly JsonObject[], prompt: PromptConfig): void {
  const conflicting = rows.flatMap((row, i) => {
    const params = row['responses_create_params'];
    const input = isJsonObject(params) ? params['input'] : undefined;
    return input === undefined || input === null || input === '' || (Array.isArray(input) && input.length === 0) ? [] : [i];
  });
  if (conflicting.length > 0) {
    throw new RolloutInputError(
      'GYM_ROLLOUT_PROMPT_CONFIG',
      `Rows ${conflicting.slice(0, 20).join(', ')}${conflicting.length > 20 ? ', …' : ''} already have responses_create_params.input, and the prompt config '${prompt.source}' would build it: use one or the other.`,
    );
  }
}

/** A copy of `row` whose `responses_create_params.input` is the filled prompt (other params kept). */
export function applyPrompt(row: JsonObject, prompt: PromptConfig): JsonObject {
  const input: JsonObject[] = [];
  if (prompt.system !== undefined) input.push({ role: 'system', content: fillTemplate(prompt.system, row, prompt.source) });
  input.push({ role: 'user', content: fillTemplate(prompt.user, row, prompt.source) });
  const params = isJsonObject(row['responses_create_params']) ? row['responses_create_params'] : {};
  return { ...row, responses_create_params: { ...params, input } };
}

/**
 * Python's `str.format_map` for what prompt templates use: `{field}` takes a top-level field of
 * the row, formatted as Python's `str()` would (so templates written for the original give the
 * same text); `{{` / `}}` are literal braces.
 */
export function fillTemplate(template: string, row: JsonObject, source: string): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if ((c === '{' || c === '}') && template[i + 1] === c) {
      out += c;
      i++;
    } else if (c === '{') {
      const end = template.indexOf('}', i);
      if (end === -1) throw templateError(source, `an unclosed '{' at character ${i}`);
      const field = template.slice(i + 1, end);
      if (!Object.hasOwn(row, field)) {
        throw templateError(source, `the placeholder {${field}} names a field the row does not have; the row has: ${Object.keys(row).join(', ')}`);
      }
      out += pythonStr(row[field]);
      i = end;
    } else if (c === '}') throw templateError(source, `a single '}' at character ${i} (write '}}' for a literal brace)`);
    else out += c;
  }
  return out;
}

function templateError(source: string, why: string): RolloutInputError {
  return new RolloutInputError('GYM_ROLLOUT_PROMPT_CONFIG', `The prompt config '${source}' cannot be filled: ${why}.`);
}

/** Python's `str()` of a JSON value. */
function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  return `{${Object.entries(value as JsonObject)
    .map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`)
    .join(', ')}}`;
}

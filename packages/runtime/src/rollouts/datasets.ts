/**
 * Collating the agents' datasets of one type (`example`, `train`, `validation`, `benchmark`) into
 * the rows of a collection run, as the original's data preparation does: in config order, every
 * dataset of that type of every agent, each line repeated the dataset's `num_repeats` times,
 * `benchmark` datasets through their own `prompt_config`, and every row routed to the agent that
 * declares the dataset (`agent_ref`).
 * @module
 */
import { readFileSync } from 'node:fs';
import { RolloutInputError } from './errors.js';
import { parseInputRows } from './input-rows.js';
import { applyPrompt, checkPromptCompatible, loadPromptConfig } from './prompt-config.js';
import { isJsonObject } from './types.js';
import type { ConfigMap } from '@gym/server/internal/config/types.js';
import type { JsonlLine, MalformedLine } from './jsonl.js';
import type { JsonObject } from './types.js';

/** The dataset types the original defines. */
export const DATASET_TYPES = ['example', 'train', 'validation', 'benchmark'] as const;
export type DatasetType = (typeof DATASET_TYPES)[number];

/** One dataset entry of an agent. */
export interface DatasetEntry {
  agent: string;
  name: string;
  type: string;
  jsonlFpath: string;
  numRepeats: number;
  promptConfig?: string;
}

/** Rows of a collated split, plus the lines skipped per dataset file. */
export interface CollatedRows {
  rows: JsonlLine[];
  malformed: { file: string; lines: MalformedLine[] }[];
  /** The datasets used, for the run's info line. */
  used: DatasetEntry[];
}

/** Options of {@link collateDatasets}. */
export interface CollateOptions {
  split: string;
  /** Only these agents' datasets (default: every agent that runs). */
  agents: readonly string[];
  /** Turns a config path (`jsonl_fpath`, `prompt_config`) into a readable one. */
  resolvePath: (path: string) => string;
  /** Rows may lack `responses_create_params` (a run-level prompt config builds it). */
  promptInput: boolean;
  strict: boolean;
}

/** Every dataset entry of the agent instances in `config`, in config order. */
export function listDatasets(config: ConfigMap): DatasetEntry[] {
  const out: DatasetEntry[] = [];
  for (const [agent, block] of Object.entries(config)) {
    if (!isJsonObject(block) || !isJsonObject(block['responses_api_agents'])) continue;
    for (const impl of Object.values(block['responses_api_agents'])) {
      if (!isJsonObject(impl) || !Array.isArray(impl['datasets'])) continue;
      for (const d of impl['datasets']) {
        if (!isJsonObject(d) || typeof d['jsonl_fpath'] !== 'string') continue;
        const repeats = d['num_repeats'];
        out.push({
          agent,
          name: typeof d['name'] === 'string' ? d['name'] : d['jsonl_fpath'],
          type: typeof d['type'] === 'string' ? d['type'] : '',
          jsonlFpath: d['jsonl_fpath'],
          numRepeats: typeof repeats === 'number' && Number.isInteger(repeats) && repeats >= 1 ? repeats : 1,
          ...(typeof d['prompt_config'] === 'string' && d['prompt_config'] !== '' ? { promptConfig: d['prompt_config'] } : {}),
        });
      }
    }
  }
  return out;
}

/**
 * Reads the datasets of `options.split` into input rows. A row's text (what identical-task
 * detection compares) is the collated row, agent included, as in the original's collated file.
 * @throws `GYM_ROLLOUT_NO_INPUT` when no agent has a dataset of that type (naming those there are),
 * `GYM_ROLLOUT_INPUT_NOT_FOUND` for a dataset file that cannot be read, `GYM_ROLLOUT_PROMPT_CONFIG`
 * for a benchmark prompt that cannot be applied.
 */
export function collateDatasets(config: ConfigMap, options: CollateOptions): CollatedRows {
  const all = listDatasets(config).filter((d) => options.agents.includes(d.agent));
  const used = all.filter((d) => d.type === options.split);
  if (used.length === 0) {
    const have = all.map((d) => `${d.agent}: ${d.name} (${d.type || 'no type'})`);
    throw new RolloutInputError(
      'GYM_ROLLOUT_NO_INPUT',
      `No agent has a dataset of type "${options.split}"${have.length > 0 ? `; the datasets are: ${have.join(', ')}` : ''}. Pass --input, or --split with one of ${DATASET_TYPES.join(', ')}.`,
    );
  }
  const rows: JsonlLine[] = [];
  const malformed: CollatedRows['malformed'] = [];
  for (const d of used) {
    const file = options.resolvePath(d.jsonlFpath);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new RolloutInputError(
        'GYM_ROLLOUT_INPUT_NOT_FOUND',
        `Cannot read dataset '${d.name}' of agent ${d.agent} at '${d.jsonlFpath}' (${(error as Error).message}). Download or prepare it, or pass --input.`,
        { cause: error },
      );
    }
    const prompt = d.type === 'benchmark' && d.promptConfig !== undefined ? loadPromptConfig(options.resolvePath(d.promptConfig), d.promptConfig) : undefined;
    const parsed = parseInputRows(text, file, options.strict, { promptInput: options.promptInput || prompt !== undefined });
    if (parsed.malformed.length > 0) malformed.push({ file, lines: parsed.malformed });
    if (prompt !== undefined)
      checkPromptCompatible(
        parsed.rows.map((l) => l.value),
        prompt,
      );
    for (const line of parsed.rows) {
      let row: JsonObject = line.value;
      if (prompt !== undefined) row = applyPrompt(row, prompt);
      row = { ...row, agent_ref: { type: 'responses_api_agents', name: d.agent } };
      const collated = JSON.stringify(row);
      for (let r = 0; r < d.numRepeats; r++) rows.push({ lineNumber: rows.length + 1, text: collated, value: structuredClone(row) });
    }
  }
  return { rows, malformed, used };
}

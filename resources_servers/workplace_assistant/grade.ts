/**
 * The original's grading: replay the reply's function calls and the row's ground-truth calls, each
 * on a fresh company, skipping any call that fails; the reward is 1.0 when the two end states are
 * equal — every dataset's rows, index labels and values, text compared without regard to case
 * except `status`, `list_name` and `board` (as the original lower-cases before comparing).
 * @module
 */
import { createCompany } from './company.js';
import { callTool } from './tools/index.js';
import type { Company } from './company.js';
import type { Table } from './table.js';

/** A function call: a name and its JSON-encoded arguments. */
export interface Action {
  name?: unknown;
  arguments?: unknown;
}

const CASE_SENSITIVE = new Set(['status', 'list_name', 'board']);

/** Runs `actions` on a fresh company; one that cannot run is skipped, as in the original. */
export function replay(actions: readonly Action[]): Company {
  const company = createCompany();
  for (const action of actions) {
    try {
      const args = JSON.parse(String(action.arguments)) as unknown;
      if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new TypeError('arguments must be a JSON object');
      callTool(company, String(action.name), args as Record<string, unknown>);
    } catch {
      // the original prints the error and goes on with the next action
    }
  }
  return company;
}

/** A table as the original compares it: labels, and values lower-cased (there a non-text value becomes missing). */
function comparable(table: Table): string {
  const cell = (column: string, value: unknown) => (CASE_SENSITIVE.has(column) ? (value ?? null) : typeof value === 'string' ? value.toLowerCase() : null);
  return JSON.stringify(table.rows.map((row) => [row.label, table.columns.map((c) => cell(c, row.values[c]))]));
}

const STATEFUL: ReadonlyArray<keyof Company> = ['calendar', 'emails', 'plots', 'tasks', 'customers'];

/** True when the predicted calls leave the company as the ground truth's do. A string ground truth holds no calls. */
export function sameOutcome(predicted: readonly Action[], groundTruth: readonly Action[] | string): boolean {
  const a = replay(predicted);
  const b = replay(typeof groundTruth === 'string' ? [] : groundTruth);
  return STATEFUL.every((key) => comparable(a[key] as Table) === comparable(b[key] as Table));
}

/**
 * `Table`: the rows of one workplace dataset with the pandas index labels the original's state
 * comparison looks at. Deleting keeps the other rows' labels; an append either renumbers every row
 * (`concat(..., ignore_index=True)`) or gives the new row a label of its own, as each original tool
 * does — so two action sequences compare equal exactly when the original's data frames would.
 * @module
 */
import { pyInt } from './py.js';

/** A row's values by column; `null` is pandas' missing value. */
export type Values = Record<string, unknown>;

/** One row and its index label. */
export interface Row {
  label: number;
  values: Values;
}

/** A dataset's rows, in order. */
export class Table {
  constructor(
    readonly columns: readonly string[],
    public rows: Row[],
  ) {}

  /** Rows as read from a CSV: labels 0…n-1, empty cells missing. */
  static fromRecords(columns: readonly string[], records: readonly Values[]): Table {
    return new Table(
      columns,
      records.map((record, label) => ({ label, values: Object.fromEntries(columns.map((c) => [c, record[c] === '' || record[c] === undefined ? null : record[c]])) })),
    );
  }

  clone(): Table {
    return new Table(
      this.columns,
      this.rows.map((row) => ({ label: row.label, values: { ...row.values } })),
    );
  }

  /** The values of the rows whose `column` equals `value`. */
  where(column: string, value: unknown): Values[] {
    return this.rows.filter((row) => row.values[column] === value).map((row) => row.values);
  }

  /** `value in df[column].values`. */
  has(column: string, value: unknown): boolean {
    return this.rows.some((row) => row.values[column] === value);
  }

  /** Drops the rows whose `column` equals `value`; the rest keep their labels. */
  remove(column: string, value: unknown): void {
    this.rows = this.rows.filter((row) => row.values[column] !== value);
  }

  /** `df.loc[df[column] == value, field] = newValue`. */
  set(column: string, value: unknown, field: string, newValue: unknown): void {
    for (const row of this.rows) if (row.values[column] === value) row.values[field] = newValue;
  }

  /** Appends a row; `label` given keeps the others' labels, else every row is renumbered. */
  append(values: Values, label?: number): void {
    this.rows.push({ label: label ?? 0, values: Object.fromEntries(this.columns.map((c) => [c, values[c] ?? null])) });
    if (label === undefined) this.rows.forEach((row, i) => (row.label = i));
  }

  /** `int(df[column].max())`: the greatest value as pandas orders strings; raises on an empty or mixed column. */
  maxInt(column: string): number {
    const values = this.rows.map((row) => row.values[column]);
    if (values.length === 0 || values.some((v) => typeof v !== 'string')) throw new TypeError(`cannot take the max of column '${column}'`);
    return pyInt((values as string[]).reduce((a, b) => (b > a ? b : a)));
  }
}

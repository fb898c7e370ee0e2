/**
 * The synthetic company the workplace tools work on (data/company.json, made by data/generate.py):
 * a fresh copy per session, as the original builds a fresh tool environment per `seed_session`.
 * @module
 */
import { readFileSync } from 'node:fs';
import { besideSource } from '../beside-source.js';
import { Table } from './table.js';
import type { Values } from './table.js';

/** One session's state: the directory, the five datasets, and the plots made so far. */
export interface Company {
  directory: readonly string[];
  emails: Table;
  calendar: Table;
  tasks: Table;
  customers: Table;
  /** Visits, with `user_engaged` as a boolean (read-only). */
  analytics: readonly Values[];
  plots: Table;
}

const EMAIL_COLUMNS = ['email_id', 'inbox/outbox', 'sender/recipient', 'subject', 'sent_datetime', 'body'];
const EVENT_COLUMNS = ['event_id', 'event_name', 'participant_email', 'event_start', 'duration'];
const TASK_COLUMNS = ['task_id', 'task_name', 'assigned_to_email', 'list_name', 'due_date', 'board'];
const CUSTOMER_COLUMNS = ['customer_id', 'assigned_to_email', 'customer_name', 'customer_email', 'customer_phone', 'last_contact_date', 'product_interest', 'status', 'follow_up_by', 'notes'];

interface CompanyFile {
  directory: string[];
  emails: Values[];
  calendar_events: Values[];
  project_tasks: Values[];
  customers: Values[];
  analytics: Values[];
}

let pristine: Company | undefined;

function load(): Company {
  const file = JSON.parse(readFileSync(besideSource(import.meta.url, './data/company.json'), 'utf8')) as CompanyFile;
  return {
    directory: file.directory,
    emails: Table.fromRecords(EMAIL_COLUMNS, file.emails),
    calendar: Table.fromRecords(EVENT_COLUMNS, file.calendar_events),
    tasks: Table.fromRecords(TASK_COLUMNS, file.project_tasks),
    customers: Table.fromRecords(CUSTOMER_COLUMNS, file.customers),
    analytics: file.analytics.map((visit) => ({ ...visit, user_engaged: visit['user_engaged'] === 'True' })),
    plots: new Table(['file_path'], []),
  };
}

/** A fresh company, as the data file has it (read once per process). */
export function createCompany(): Company {
  pristine ??= load();
  return {
    directory: pristine.directory,
    emails: pristine.emails.clone(),
    calendar: pristine.calendar.clone(),
    tasks: pristine.tasks.clone(),
    customers: pristine.customers.clone(),
    analytics: pristine.analytics,
    plots: pristine.plots.clone(),
  };
}

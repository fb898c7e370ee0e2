/**
 * The mailbox tools: read, search, send, delete, forward and reply. A sent email gets the next ID
 * (greatest ID + 1, not zero-padded, as in the original), the environment's current time, and
 * renumbers the mailbox's rows.
 * @module
 */
import { lower, truthy, within } from '../py.js';
import { arg, paginate, parseTimestamp } from './tool.js';
import type { Company } from '../company.js';
import type { Args, WorkplaceTool } from './tool.js';

/** "Now" in the environment: every task's prompt says so. */
export const CURRENT_TIME = '2023-11-30 23:59:00';

function send(company: Company, recipient: unknown, subject: unknown, body: unknown): string {
  if (!truthy(recipient) || !truthy(subject) || !truthy(body)) return 'Recipient, subject, or body not provided.';
  if (!within('@', recipient as string) || !within('.', recipient as string)) return 'Invalid recipient email address.';
  const id = company.emails.rows.length === 0 ? '1' : String(company.emails.maxInt('email_id') + 1);
  company.emails.append({ email_id: id, 'inbox/outbox': 'outbox', 'sender/recipient': lower(recipient), subject, sent_datetime: CURRENT_TIME, body });
  return 'Email sent successfully.';
}

function dateOf(value: unknown): number {
  const ms = parseTimestamp(value);
  if (ms === undefined) throw new TypeError(`could not read the date ${JSON.stringify(value)}`);
  return Math.floor(ms / 86_400_000);
}

function search(company: Company, args: Args): unknown {
  const query = arg(args, 'query', '');
  const dateMin = arg(args, 'date_min');
  const dateMax = arg(args, 'date_max');
  const words = lower(query).split(/\s+/).filter(Boolean);
  let emails = company.emails.rows
    .map((row) => row.values)
    .filter((e) => {
      const text = `${String(e['subject'])} ${String(e['body'])} ${String(e['sender/recipient'])}`.toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .sort((a, b) => (parseTimestamp(b['sent_datetime']) ?? 0) - (parseTimestamp(a['sent_datetime']) ?? 0));
  if (truthy(dateMin)) emails = emails.filter((e) => dateOf(e['sent_datetime']) >= dateOf(dateMin));
  if (truthy(dateMax)) emails = emails.filter((e) => dateOf(e['sent_datetime']) <= dateOf(dateMax));
  return emails.length > 0 ? paginate(emails, arg(args, 'page', 1), arg(args, 'page_size', 5), 'emails', 'emails') : 'No emails found.';
}

/** The email tools by name. */
export const EMAIL_TOOLS: Record<string, WorkplaceTool> = {
  email_get_email_information_by_id: {
    params: ['email_id', 'field'],
    run(company, args) {
      const id = arg(args, 'email_id');
      const field = arg(args, 'field');
      if (!truthy(id)) return 'Email ID not provided.';
      if (!truthy(field)) return 'Field not provided.';
      const email = company.emails.where('email_id', id)[0];
      if (email === undefined) return 'Email not found.';
      if (typeof field === 'string' && Object.hasOwn(email, field)) return { [field]: email[field] };
      return `Field '${String(field)}' not found. Available fields: ${Object.keys(email).join(', ')}`;
    },
  },
  email_search_emails: {
    params: ['query', 'date_min', 'date_max', 'page', 'page_size'],
    run(company, args) {
      try {
        return search(company, args);
      } catch (error) {
        return `Error searching emails: ${(error as Error).message}`;
      }
    },
  },
  email_send_email: { params: ['recipient', 'subject', 'body'], run: (company, args) => send(company, arg(args, 'recipient'), arg(args, 'subject'), arg(args, 'body')) },
  email_delete_email: {
    params: ['email_id'],
    run(company, args) {
      const id = arg(args, 'email_id');
      if (!truthy(id)) return 'Email ID not provided.';
      if (!company.emails.has('email_id', id)) return 'Email not found.';
      company.emails.remove('email_id', id);
      return 'Email deleted successfully.';
    },
  },
  email_forward_email: {
    params: ['email_id', 'recipient'],
    run(company, args) {
      const id = arg(args, 'email_id');
      const recipient = arg(args, 'recipient');
      if (!truthy(id) || !truthy(recipient)) return 'Email ID or recipient not provided.';
      if (!within('@', recipient as string) || !within('.', recipient as string)) return 'Invalid recipient email address.';
      if (!company.emails.has('email_id', id)) return 'Email not found.';
      const email = company.emails.where('email_id', id)[0]!;
      const result = send(company, lower(recipient), `FW: ${String(email['subject'])}`, email['body']);
      return result.includes('Error') || result.includes('Invalid') ? result : 'Email forwarded successfully.';
    },
  },
  email_reply_email: {
    params: ['email_id', 'body'],
    run(company, args) {
      const id = arg(args, 'email_id');
      const body = arg(args, 'body');
      if (!truthy(id) || !truthy(body)) return 'Email ID or body not provided.';
      if (!company.emails.has('email_id', id)) return 'Email not found.';
      const email = company.emails.where('email_id', id)[0]!;
      const result = send(company, email['sender/recipient'], `RE: ${String(email['subject'])}`, body);
      return result.includes('Error') || result.includes('Invalid') ? result : 'Email replied successfully.';
    },
  },
};

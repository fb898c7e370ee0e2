/**
 * The calendar tools: read, search, create, delete and update events. A new event gets the next
 * 8-digit ID and, as the original's `concat` without `ignore_index` gives it, the index label 0.
 * @module
 */
import { containsPattern, lower, pyInt, truthy } from '../py.js';
import { arg, paginate, parseTimestamp } from './tool.js';
import type { WorkplaceTool } from './tool.js';

const READABLE = ['event_id', 'event_name', 'participant_email', 'event_start', 'duration'];
const UPDATABLE = ['event_name', 'participant_email', 'event_start', 'duration'];
const isEventId = (id: unknown) => typeof id === 'string' && /^\d{8}$/.test(id);

/** `None` when the duration is a positive whole number of minutes, else the refusal. */
function durationProblem(value: unknown): string | undefined {
  let minutes: number;
  try {
    minutes = pyInt(value);
  } catch {
    return 'Invalid duration format. Expected a number of minutes.';
  }
  return minutes <= 0 ? 'Duration must be a positive number of minutes.' : undefined;
}

/** The calendar tools by name. */
export const CALENDAR_TOOLS: Record<string, WorkplaceTool> = {
  calendar_get_event_information_by_id: {
    params: ['event_id', 'field'],
    run(company, args) {
      const id = arg(args, 'event_id');
      const field = arg(args, 'field');
      if (!truthy(id)) return 'Event ID not provided.';
      if (!truthy(field)) return 'Field not provided.';
      if (!isEventId(id)) return 'Invalid event ID format. Expected 8-digit ID.';
      if (typeof field !== 'string' || !READABLE.includes(field)) return `Invalid field. Available fields are: ${READABLE.join(', ')}`;
      const event = company.calendar.where('event_id', id)[0];
      return event === undefined ? 'Event not found.' : { [field]: event[field] };
    },
  },
  calendar_search_events: {
    params: ['query', 'time_min', 'time_max', 'page', 'page_size'],
    run(company, args) {
      const query = arg(args, 'query', '');
      const [timeMin, timeMax] = [arg(args, 'time_min'), arg(args, 'time_max')];
      const min = truthy(timeMin) ? parseTimestamp(timeMin) : undefined;
      if (truthy(timeMin) && min === undefined) return 'Invalid time_min format. Expected YYYY-MM-DD HH:MM:SS.';
      const max = truthy(timeMax) ? parseTimestamp(timeMax) : undefined;
      if (truthy(timeMax) && max === undefined) return 'Invalid time_max format. Expected YYYY-MM-DD HH:MM:SS.';
      const start = (e: Record<string, unknown>) => parseTimestamp(e['event_start']) ?? 0;
      const events = company.calendar.rows
        .map((row) => row.values)
        .filter((e) => containsPattern(e['event_name'], query) || containsPattern(e['participant_email'], query))
        .filter((e) => (min === undefined || start(e) >= min) && (max === undefined || start(e) <= max))
        .sort((a, b) => start(b) - start(a));
      return events.length > 0 ? paginate(events, arg(args, 'page', 1), arg(args, 'page_size', 5), 'events', 'events') : 'No events found.';
    },
  },
  calendar_create_event: {
    params: ['event_name', 'participant_email', 'event_start', 'duration'],
    run(company, args) {
      const [name, email, start, duration] = ['event_name', 'participant_email', 'event_start', 'duration'].map((k) => arg(args, k));
      if (!truthy(name)) return 'Event name not provided.';
      if (!truthy(email)) return 'Participant email not provided.';
      if (!truthy(start)) return 'Event start not provided.';
      if (!truthy(duration)) return 'Event duration not provided.';
      if (parseTimestamp(start) === undefined) return 'Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.';
      const problem = durationProblem(duration);
      if (problem !== undefined) return problem;
      const id = String(company.calendar.maxInt('event_id') + 1).padStart(8, '0');
      company.calendar.append({ event_id: id, event_name: name, participant_email: lower(email), event_start: start, duration }, 0);
      return id;
    },
  },
  calendar_delete_event: {
    params: ['event_id'],
    run(company, args) {
      const id = arg(args, 'event_id');
      if (!truthy(id)) return 'Event ID not provided.';
      if (!isEventId(id)) return 'Invalid event ID format. Expected 8-digit ID.';
      if (!company.calendar.has('event_id', id)) return 'Event not found.';
      company.calendar.remove('event_id', id);
      return 'Event deleted successfully.';
    },
  },
  calendar_update_event: {
    params: ['event_id', 'field', 'new_value'],
    run(company, args) {
      const [id, field, value] = ['event_id', 'field', 'new_value'].map((k) => arg(args, k));
      if (!truthy(id) || !truthy(field) || !truthy(value)) return 'Event ID, field, or new value not provided.';
      if (!isEventId(id)) return 'Invalid event ID format. Expected 8-digit ID.';
      if (typeof field !== 'string' || !UPDATABLE.includes(field)) return `Invalid field. Available fields are: ${UPDATABLE.join(', ')}`;
      if (field === 'event_start' && parseTimestamp(value) === undefined) return 'Invalid event_start format. Expected YYYY-MM-DD HH:MM:SS.';
      if (field === 'duration') {
        const problem = durationProblem(value);
        if (problem !== undefined) return problem;
      }
      if (!company.calendar.has('event_id', id)) return 'Event not found.';
      company.calendar.set('event_id', id, field, field === 'participant_email' ? lower(value) : value);
      return 'Event updated successfully.';
    },
  },
};

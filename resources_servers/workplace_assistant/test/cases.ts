/**
 * Generated grading cases for workplace_assistant: ground truths of one to three state-changing
 * calls, and predictions that match them, reorder them, change case, drop or repeat a call, add
 * read-only calls, or make calls the tools refuse or cannot run.
 * @module
 */

/** A function call as a row's `ground_truth` or a reply's `function_call` holds it. */
export interface Call {
  name: string;
  arguments: string;
}

/** One case: the reply's calls and the row's ground truth. */
export interface GradeCase {
  predicted: Call[];
  ground_truth: Call[] | string;
}

const call = (name: string, args: Record<string, unknown>): Call => ({ name, arguments: JSON.stringify(args) });

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** State-changing calls, some of them refused by the tools. */
const WRITES: Call[] = [
  call('email_reply_email', { email_id: '00000003', body: 'Thanks, I will review it today.' }),
  call('email_send_email', { recipient: 'Hana.Sato@larkspur.io', subject: 'Lunch', body: 'Free at noon?' }),
  call('email_send_email', { recipient: 'not-an-address', subject: 'x', body: 'y' }),
  call('email_forward_email', { email_id: '00000010', recipient: 'omar.haddad@larkspur.io' }),
  call('email_delete_email', { email_id: '00000012' }),
  call('email_delete_email', { email_id: '99999999' }),
  call('calendar_create_event', { event_name: 'roadmap review', participant_email: 'hana.sato@larkspur.io', event_start: '2023-12-04 10:00:00', duration: '30' }),
  call('calendar_create_event', { event_name: 'Roadmap Review', participant_email: 'HANA.SATO@larkspur.io', event_start: '2023-12-04 10:00:00', duration: '30' }),
  call('calendar_create_event', { event_name: 'standup', participant_email: 'arjun.nair@larkspur.io', event_start: 'tomorrow', duration: '15' }),
  call('calendar_create_event', { event_name: 'standup', participant_email: 'arjun.nair@larkspur.io', event_start: '2023-12-05 09:00:00', duration: 15 }),
  call('calendar_delete_event', { event_id: '00000004' }),
  call('calendar_update_event', { event_id: '00000007', field: 'duration', new_value: '60' }),
  call('calendar_update_event', { event_id: '00000007', field: 'duration', new_value: '-5' }),
  call('analytics_create_plot', { time_min: '2023-11-01', time_max: '2023-11-15', value_to_plot: 'total_visits', plot_type: 'bar' }),
  call('analytics_create_plot', { time_min: '2023-11-01', time_max: '2023-11-15', value_to_plot: 'visits', plot_type: 'bar' }),
  call('project_management_update_task', { task_id: '00000006', field: 'list_name', new_value: 'In Review' }),
  call('project_management_update_task', { task_id: '00000006', field: 'list_name', new_value: 'in review' }),
  call('project_management_update_task', { task_id: '00000002', field: 'assigned_to_email', new_value: 'Noor.Rahman@larkspur.io' }),
  call('project_management_create_task', { task_name: 'Add SSO', assigned_to_email: 'maya.okafor@larkspur.io', list_name: 'Backlog', due_date: '2023-12-20', board: 'Back end' }),
  call('project_management_create_task', { task_name: 'Add SSO', assigned_to_email: 'someone@else.com', list_name: 'Backlog', due_date: '2023-12-20', board: 'Back end' }),
  call('project_management_delete_task', { task_id: '00000009' }),
  call('customer_relationship_manager_update_customer', { customer_id: '00000003', field: 'status', new_value: 'Won' }),
  call('customer_relationship_manager_update_customer', { customer_id: '00000003', field: 'status', new_value: 'won' }),
  call('customer_relationship_manager_add_customer', { customer_name: 'Pia Berg', assigned_to_email: 'Lucia.Romano@larkspur.io', status: 'Lead', customer_email: 'PIA@fjord.com' }),
  call('customer_relationship_manager_add_customer', { customer_name: 'Pia Berg', assigned_to_email: 'lucia.romano@larkspur.io', status: 'Lead', customer_email: 'pia@fjord.com', notes: null }),
  call('customer_relationship_manager_delete_customer', { customer_id: '00000005' }),
];

/** Calls that change nothing: reads, and calls that cannot run. */
const NO_EFFECT: Call[] = [
  call('email_search_emails', { query: 'login' }),
  call('company_directory_find_email_address', { name: 'hana' }),
  call('project_management_search_tasks', { board: 'Design' }),
  call('email_send_email', { recipient: 'a@b.co', subject: 's', body: 'b', cc: 'x@y.z' }),
  { name: 'email_send_email', arguments: '{not json' },
  call('no_such_tool', { a: 1 }),
  call('email_send_email', { recipient: 5, subject: 's', body: 'b' }),
];

/** `count` cases from a fixed seed. */
export function gradeCases(count: number): GradeCase[] {
  const next = random(1919);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const cases: GradeCase[] = [];
  for (let i = 0; i < count; i++) {
    const truth = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(WRITES));
    let predicted = [...truth];
    switch (Math.floor(next() * 7)) {
      case 0:
        break; // the same calls
      case 1:
        predicted.reverse(); // reordered: equal only when the order leaves the same rows and labels
        break;
      case 2:
        predicted = predicted.slice(1); // one missing
        break;
      case 3:
        predicted.push(pick(WRITES)); // one extra
        break;
      case 4:
        predicted.splice(Math.floor(next() * (predicted.length + 1)), 0, pick(NO_EFFECT), pick(NO_EFFECT)); // reads and failures around
        break;
      case 5:
        predicted = predicted.map(() => pick(WRITES)); // different calls
        break;
      default:
        predicted = [...predicted, ...predicted]; // repeated
    }
    cases.push({ predicted, ground_truth: next() < 0.03 ? 'not a list' : truth });
  }
  return cases;
}

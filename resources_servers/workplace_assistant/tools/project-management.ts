/**
 * The project board tools: read, search, create, delete and update tasks. A new task gets the
 * next 8-digit ID and renumbers the board's rows; lists, boards and assignees are checked.
 * @module
 */
import { containsPattern, lower, truthy } from '../py.js';
import { arg } from './tool.js';
import type { Company } from '../company.js';
import type { WorkplaceTool } from './tool.js';

const LISTS = ['Backlog', 'In Progress', 'In Review', 'Completed'];
const BOARDS = ['Back end', 'Front end', 'Design'];
const LIST_REFUSAL = "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'.";
const BOARD_REFUSAL = "Board not valid. Please choose from: 'Back end', 'Front end', 'Design'.";
const ASSIGNEE_REFUSAL = 'Assignee email not valid. Please choose from the list of team members.';
const EMAIL = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}\n?$/;
const FIELDS = ['task_name', 'assigned_to_email', 'list_name', 'due_date', 'board'];

const isAssignee = (company: Company, email: string) =>
  company.tasks.rows.some((row) => typeof row.values['assigned_to_email'] === 'string' && row.values['assigned_to_email'].toLowerCase() === email);

/** The project management tools by name. */
export const PROJECT_MANAGEMENT_TOOLS: Record<string, WorkplaceTool> = {
  project_management_get_task_information_by_id: {
    params: ['task_id', 'field'],
    run(company, args) {
      const id = arg(args, 'task_id');
      const field = arg(args, 'field');
      if (!truthy(id)) return 'Task ID not provided.';
      if (!truthy(field)) return 'Field not provided.';
      const task = company.tasks.where('task_id', id)[0];
      if (task === undefined) return 'Task not found.';
      return typeof field === 'string' && Object.hasOwn(task, field) ? { [field]: task[field] } : 'Field not found.';
    },
  },
  project_management_search_tasks: {
    params: FIELDS,
    run(company, args) {
      const given = Object.fromEntries(FIELDS.map((k) => [k, arg(args, k)]));
      if (!FIELDS.some((k) => truthy(given[k]))) return 'No search parameters provided.';
      const assignee = given['assigned_to_email'];
      if (truthy(assignee) && !EMAIL.test(String(assignee))) return 'Invalid email format for assigned_to_email.';
      return company.tasks.rows
        .map((row) => row.values)
        .filter((task) =>
          FIELDS.every((k) => {
            if (!truthy(given[k])) return true;
            if (k === 'assigned_to_email') return typeof task[k] === 'string' && task[k].toLowerCase() === lower(given[k]);
            return containsPattern(task[k], given[k]);
          }),
        );
    },
  },
  project_management_create_task: {
    params: FIELDS,
    run(company, args) {
      const [name, assignee, list, due, board] = FIELDS.map((k) => arg(args, k));
      if (![name, assignee, list, due, board].every(truthy)) return 'Missing task details.';
      const email = lower(assignee);
      if (!isAssignee(company, email)) return ASSIGNEE_REFUSAL;
      if (!LISTS.includes(list as string)) return LIST_REFUSAL;
      if (!BOARDS.includes(board as string)) return BOARD_REFUSAL;
      const id = String(company.tasks.maxInt('task_id') + 1).padStart(8, '0');
      company.tasks.append({ task_id: id, task_name: name, assigned_to_email: email, list_name: list, due_date: due, board });
      return id;
    },
  },
  project_management_delete_task: {
    params: ['task_id'],
    run(company, args) {
      const id = arg(args, 'task_id');
      if (!truthy(id)) return 'Task ID not provided.';
      if (!company.tasks.has('task_id', id)) return 'Task not found.';
      company.tasks.remove('task_id', id);
      return 'Task deleted successfully.';
    },
  },
  project_management_update_task: {
    params: ['task_id', 'field', 'new_value'],
    run(company, args) {
      const [id, field] = [arg(args, 'task_id'), arg(args, 'field')];
      let value = arg(args, 'new_value');
      if (!truthy(id) || !truthy(field) || !truthy(value)) return 'Task ID, field, or new value not provided.';
      if (field === 'assigned_to_email') value = lower(value);
      if (field === 'board' && !BOARDS.includes(value as string)) return BOARD_REFUSAL;
      if (field === 'list_name' && !LISTS.includes(value as string)) return LIST_REFUSAL;
      if (field === 'assigned_to_email' && !isAssignee(company, value as string)) return ASSIGNEE_REFUSAL;
      if (!company.tasks.has('task_id', id)) return 'Task not found.';
      if (typeof field !== 'string' || !company.tasks.columns.includes(field)) return 'Field not valid.';
      company.tasks.set('task_id', id, field, value);
      return 'Task updated successfully.';
    },
  },
};

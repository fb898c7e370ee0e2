/**
 * Every workplace tool by name (27 of them, the original's names and parameters), and the one way
 * they are called: unknown parameters refused, as Python refuses an unexpected keyword argument.
 * @module
 */
import { ANALYTICS_TOOLS } from './analytics.js';
import { CALENDAR_TOOLS } from './calendar.js';
import { CUSTOMER_TOOLS } from './customers.js';
import { DIRECTORY_TOOLS } from './directory.js';
import { EMAIL_TOOLS } from './email.js';
import { PROJECT_MANAGEMENT_TOOLS } from './project-management.js';
import type { Company } from '../company.js';
import type { Args, WorkplaceTool } from './tool.js';

/** The tools by name. */
export const WORKPLACE_TOOLS: Readonly<Record<string, WorkplaceTool>> = { ...DIRECTORY_TOOLS, ...EMAIL_TOOLS, ...CALENDAR_TOOLS, ...ANALYTICS_TOOLS, ...PROJECT_MANAGEMENT_TOOLS, ...CUSTOMER_TOOLS };

/** Calls tool `name` on `company`; throws for an unknown tool or parameter, or where the original raises. */
export function callTool(company: Company, name: string, args: Args): unknown {
  const tool = Object.hasOwn(WORKPLACE_TOOLS, name) ? WORKPLACE_TOOLS[name]! : undefined;
  if (tool === undefined) throw new TypeError(`'${name}'`);
  const unexpected = Object.keys(args).find((key) => !tool.params.includes(key));
  if (unexpected !== undefined) throw new TypeError(`${name}() got an unexpected keyword argument '${unexpected}'`);
  return tool.run(company, args);
}

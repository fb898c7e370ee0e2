/**
 * The company directory: email addresses whose text matches a name (a case-insensitive pattern).
 * @module
 */
import { containsPattern, lower } from '../py.js';
import { arg } from './tool.js';
import type { WorkplaceTool } from './tool.js';

/** The directory tool by name. */
export const DIRECTORY_TOOLS: Record<string, WorkplaceTool> = {
  company_directory_find_email_address: {
    params: ['name'],
    run(company, args) {
      const name = arg(args, 'name', '');
      if (name === '') return 'Name not provided.';
      const pattern = lower(name);
      return company.directory.filter((address) => containsPattern(address, pattern));
    },
  },
};

/**
 * The CRM tools: search, update, add and delete customers. A new customer gets the next 8-digit
 * ID and renumbers the rows; statuses and product interests are checked on update.
 * @module
 */
import { containsPattern, lower, truthy } from '../py.js';
import { arg, paginate } from './tool.js';
import type { WorkplaceTool } from './tool.js';

const STATUSES = ['Qualified', 'Won', 'Lost', 'Lead', 'Proposal'];
const PRODUCTS = ['Software', 'Hardware', 'Services', 'Consulting', 'Training'];
const CONTAINS = ['customer_name', 'customer_email', 'product_interest', 'status', 'assigned_to_email'];
/** Range filters: parameter → [column, keeps the row when column ⋛ value]. */
const RANGES: Record<string, [string, (cell: string, bound: string) => boolean]> = {
  last_contact_date_min: ['last_contact_date', (c, b) => c >= b],
  last_contact_date_max: ['last_contact_date', (c, b) => c <= b],
  follow_up_by_min: ['follow_up_by', (c, b) => c >= b],
  follow_up_by_max: ['follow_up_by', (c, b) => c <= b],
};
const ADD_PARAMS = ['customer_name', 'assigned_to_email', 'status', 'customer_email', 'customer_phone', 'last_contact_date', 'product_interest', 'notes', 'follow_up_by'];

/** The customer relationship manager tools by name. */
export const CUSTOMER_TOOLS: Record<string, WorkplaceTool> = {
  customer_relationship_manager_search_customers: {
    params: [...CONTAINS, ...Object.keys(RANGES), 'page', 'page_size'],
    run(company, args) {
      const filters = [...CONTAINS, ...Object.keys(RANGES)];
      if (!filters.some((k) => truthy(arg(args, k)))) return 'No search parameters provided. Please provide at least one parameter.';
      let customers = company.customers.rows.map((row) => row.values);
      for (const k of CONTAINS) if (truthy(arg(args, k))) customers = customers.filter((c) => containsPattern(c[k], arg(args, k)));
      for (const [k, [column, keep]] of Object.entries(RANGES)) {
        const bound = arg(args, k);
        if (truthy(bound)) customers = customers.filter((c) => typeof c[column] === 'string' && keep(c[column], String(bound)));
      }
      return customers.length > 0 ? paginate(customers, arg(args, 'page', 1), arg(args, 'page_size', 5), 'customers', 'customers') : 'No customers found.';
    },
  },
  customer_relationship_manager_update_customer: {
    params: ['customer_id', 'field', 'new_value'],
    run(company, args) {
      const [id, field] = [arg(args, 'customer_id'), arg(args, 'field')];
      let value = arg(args, 'new_value');
      if (!truthy(id) || !truthy(field) || !truthy(value)) return 'Customer ID, field, or new value not provided.';
      if (field === 'status' && !STATUSES.includes(value as string)) return "Status not valid. Please choose from: 'Qualified', 'Won', 'Lost', 'Lead', 'Proposal'";
      if (field === 'product_interest' && !PRODUCTS.includes(value as string)) return "Product interest not valid. Please choose from: 'Software', 'Hardware', 'Services', 'Consulting', 'Training'";
      if (field === 'customer_email' || field === 'assigned_to_email') value = lower(value);
      if (!company.customers.has('customer_id', id)) return 'Customer not found.';
      if (typeof field !== 'string' || !company.customers.columns.includes(field)) {
        return "Field not valid. Please choose from: 'customer_name', 'assigned_to_email', 'customer_email', 'customer_phone', 'last_contact_date', 'product_interest', 'status', 'notes', 'follow_up_by'";
      }
      company.customers.set('customer_id', id, field, value);
      return 'Customer updated successfully.';
    },
  },
  customer_relationship_manager_add_customer: {
    params: ADD_PARAMS,
    run(company, args) {
      const given = Object.fromEntries(ADD_PARAMS.map((k) => [k, arg(args, k, k === 'notes' ? '' : null)]));
      if (!['customer_name', 'assigned_to_email', 'status'].every((k) => truthy(given[k]))) return 'Please provide all required fields: customer_name, assigned_to_email, status.';
      given['assigned_to_email'] = lower(given['assigned_to_email']);
      if (truthy(given['customer_email'])) given['customer_email'] = lower(given['customer_email']);
      const id = String(company.customers.maxInt('customer_id') + 1).padStart(8, '0');
      company.customers.append({ customer_id: id, ...given });
      return id;
    },
  },
  customer_relationship_manager_delete_customer: {
    params: ['customer_id'],
    run(company, args) {
      const id = arg(args, 'customer_id');
      if (!truthy(id)) return 'Customer ID not provided.';
      if (!company.customers.has('customer_id', id)) return 'Customer not found.';
      company.customers.remove('customer_id', id);
      return 'Customer deleted successfully.';
    },
  },
};

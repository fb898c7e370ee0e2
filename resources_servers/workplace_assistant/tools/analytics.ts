/**
 * The web analytics tools: visitor look-up, per-day counts and averages over a date range (dates
 * compared as strings, as the original does), and plots — a plot is recorded by its file path, the
 * only analytics state a task can change.
 * @module
 */
import { truthy } from '../py.js';
import { arg } from './tool.js';
import type { Company } from '../company.js';
import type { Args, WorkplaceTool } from './tool.js';

const PLOTTABLE = ['total_visits', 'session_duration_seconds', 'user_engaged', 'visits_direct', 'visits_referral', 'visits_search_engine', 'visits_social_media'];
const PLOT_TYPES = ['bar', 'line', 'scatter', 'histogram'];
const RANGE = ['time_min', 'time_max'];

type Visit = Record<string, unknown>;

/** The visits in the range, dates compared as strings. */
function inRange(company: Company, args: Args): Visit[] {
  const [min, max] = [arg(args, 'time_min'), arg(args, 'time_max')];
  return company.analytics.filter((v) => (!truthy(min) || String(v['date_of_visit']) >= String(min)) && (!truthy(max) || String(v['date_of_visit']) <= String(max)));
}

/** Per day (sorted, as pandas' groupby), `reduce` of that day's visits. */
function perDay(visits: Visit[], reduce: (day: Visit[]) => number): Record<string, number> {
  const days = new Map<string, Visit[]>();
  for (const v of visits) days.set(String(v['date_of_visit']), [...(days.get(String(v['date_of_visit'])) ?? []), v]);
  return Object.fromEntries([...days.keys()].sort().map((day) => [day, reduce(days.get(day)!)]));
}

/** The analytics tools by name. */
export const ANALYTICS_TOOLS: Record<string, WorkplaceTool> = {
  analytics_get_visitor_information_by_id: {
    params: ['visitor_id'],
    run(company, args) {
      const id = arg(args, 'visitor_id');
      if (!truthy(id)) return 'Visitor ID not provided.';
      const visits = company.analytics.filter((v) => v['visitor_id'] === id);
      return visits.length > 0 ? visits : 'Visitor not found.';
    },
  },
  analytics_create_plot: {
    params: ['time_min', 'time_max', 'value_to_plot', 'plot_type'],
    run(company, args) {
      const [min, max, value, type] = ['time_min', 'time_max', 'value_to_plot', 'plot_type'].map((k) => arg(args, k));
      if (!truthy(min)) return 'Start date not provided.';
      if (!truthy(max)) return 'End date not provided.';
      if (!PLOTTABLE.includes(value as string)) return `Value to plot must be one of ${PLOTTABLE.map((p) => `'${p}'`).join(', ')}`;
      if (!PLOT_TYPES.includes(type as string)) return "Plot type must be one of 'bar', 'line', 'scatter', or 'histogram'";
      const path = `plots/${String(min)}_${String(max)}_${String(value)}_${String(type)}.png`;
      company.plots.append({ file_path: path }, company.plots.rows.length);
      return path;
    },
  },
  analytics_total_visits_count: { params: RANGE, run: (company, args) => perDay(inRange(company, args), (day) => day.length) },
  analytics_engaged_users_count: { params: RANGE, run: (company, args) => perDay(inRange(company, args), (day) => day.filter((v) => v['user_engaged'] === true).length) },
  analytics_traffic_source_count: {
    params: [...RANGE, 'traffic_source'],
    run(company, args) {
      const source = arg(args, 'traffic_source');
      return perDay(inRange(company, args), (day) => (truthy(source) ? day.filter((v) => v['traffic_source'] === source).length : day.length));
    },
  },
  analytics_get_average_session_duration: {
    params: RANGE,
    run: (company, args) => perDay(inRange(company, args), (day) => day.reduce((sum, v) => sum + Number(v['session_duration_seconds']), 0) / day.length),
  },
};

/**
 * `POST` a JSON body to a resources server over real HTTP and read its JSON answer — for the
 * servers' endpoint tests.
 * @module
 */
import type { JsonRow } from './eval-run-rows.js';

/** The status and parsed JSON body of `POST url` with `body`. */
export async function postJson(url: string, body: unknown): Promise<{ status: number; json: JsonRow }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as JsonRow };
}

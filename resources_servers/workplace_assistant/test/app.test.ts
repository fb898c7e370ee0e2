/**
 * `workplace_assistant`: sessions and tools over HTTP, `/verify` against our Python reference of
 * the original's state comparison on generated cases, and the original's config file validating
 * unchanged.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { createHttpClient, createServerContext, listen, loadConfig } from '@gym/server';
import { assertOriginalConfigValidates } from '../../test-support/original-config.js';
import createWorkplaceAssistant from '../app.js';
import { gradeCases } from './cases.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const REFERENCE = fileURLToPath(new URL('./reference.py', import.meta.url));

describe('workplace_assistant', () => {
  let app: FastifyInstance;
  let url = '';
  const http = createHttpClient();
  before(async () => {
    const config = await loadConfig({ rootDir: ROOT, selectors: { resourcesServers: ['workplace_assistant'], modelTypes: ['simulated_model'] } });
    app = (await createWorkplaceAssistant(createServerContext(config.raw, 'workplace_assistant', http))).build();
    url = (await listen(app)).url;
  });
  after(async () => {
    await app.close();
    await http.close();
  });

  /** A client keeping the session cookie, as the agent does. */
  function session() {
    let cookie = '';
    return async (path: string, body: unknown) => {
      const res = await fetch(`${url}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(body) });
      cookie = res.headers.get('set-cookie')?.split(';')[0] ?? cookie;
      return { status: res.status, json: (await res.json()) as Record<string, any> };
    };
  }

  it('keeps one company per session: a change is seen by its own later calls, not by another session', async () => {
    const a = session();
    const b = session();
    assert.equal((await a('email_search_emails', { query: 'x' })).status, 400);
    await a('seed_session', {});
    await b('seed_session', {});
    assert.deepEqual((await a('calendar_create_event', { event_name: 'retro', participant_email: 'Hana.Sato@larkspur.io', event_start: '2023-12-01 10:00:00', duration: '30' })).json, {
      output: '00000025',
    });
    assert.deepEqual((await a('calendar_get_event_information_by_id', { event_id: '00000025', field: 'participant_email' })).json, { output: { participant_email: 'hana.sato@larkspur.io' } });
    assert.deepEqual((await b('calendar_get_event_information_by_id', { event_id: '00000025', field: 'participant_email' })).json, { output: 'Event not found.' });
    assert.deepEqual((await a('company_directory_find_email_address', { name: 'Hana' })).json, { output: ['hana.sato@larkspur.io'] });
    const found = (await a('email_search_emails', { query: 'login timeout', page_size: 2 })).json['output'];
    assert.deepEqual(found.pagination, { total_emails: 2, page: 1, page_size: 2, total_pages: 1 });
    assert.deepEqual((await a('project_management_update_task', { task_id: '00000006', field: 'list_name', new_value: 'Done' })).json, {
      output: "List not valid. Please choose from: 'Backlog', 'In Progress', 'In Review', 'Completed'.",
    });
    assert.match(
      (await a('email_send_email', { recipient: 'a@b.co', subject: 's', body: 'b', cc: 'x' })).json['output'],
      /^Error executing tool 'email_send_email': .*unexpected keyword argument 'cc'/,
    );
  });

  it('rewards as our Python reference of the original does, on 300 generated cases', async () => {
    const cases = gradeCases(300);
    const reference = JSON.parse(execFileSync('python3', [REFERENCE], { input: JSON.stringify({ cases }) }).toString()) as number[];
    const verify = session();
    let ones = 0;
    for (const [i, c] of cases.entries()) {
      const output = c.predicted.map((p, k) => ({ type: 'function_call', call_id: `call_${k}`, id: `fc_${k}`, status: 'completed', ...p }));
      const res = await verify('verify', {
        responses_create_params: { input: 'q' },
        response: { id: 'r', output },
        ground_truth: c.ground_truth,
        id: i,
        category: 'c',
        environment_name: 'workplace_assistant',
      });
      assert.equal(res.status, 200, JSON.stringify(res.json));
      assert.equal(res.json['reward'], reference[i], `case ${i}: ${JSON.stringify(c)}`);
      ones += reference[i]!;
    }
    // both outcomes are well represented
    assert.ok(ones > 60 && ones < 240, `${ones} of 300 rewarded`);
  });

  it("validates the original's config file unchanged (entrypoint app.py, datasets from a registry)", async () => {
    await assertOriginalConfigValidates('workplace_assistant.yaml', [
      'workplace_assistant:',
      '  resources_servers:',
      '    workplace_assistant:',
      '      entrypoint: app.py',
      '      domain: agent',
      '      verified: false',
      '      description: Workplace assistant multi-step tool-using environment',
      '      value: Improve multi-step tool use capability',
      'workplace_assistant_simple_agent:',
      '  responses_api_agents:',
      '    simple_agent:',
      '      entrypoint: app.py',
      '      max_steps: 6',
      '      resources_server: {type: resources_servers, name: workplace_assistant}',
      '      model_server: {type: responses_api_models, name: policy_model}',
      '      datasets:',
      '      - {name: train, type: train, jsonl_fpath: resources_servers/workplace_assistant/data/train.jsonl, huggingface_identifier: {repo_id: nvidia/x, artifact_fpath: train.jsonl}, license: Apache 2.0}',
      '      - {name: example, type: example, jsonl_fpath: resources_servers/workplace_assistant/data/example.jsonl}',
      '',
    ]);
  });
});

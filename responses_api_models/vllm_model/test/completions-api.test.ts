// use_completions_api: Chat and Responses requests served through vLLM's /v1/completions, the
// prompt rendered from a real chat template file (tokenizer_config.json) by @huggingface/jinja.
// The expected prompts below are what Python's Jinja2 renders from the same fixture with the
// settings transformers uses (trim_blocks, lstrip_blocks): the two implementations agree.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type OpenAI from 'openai';
import { findTokenizerConfig, loadChatTemplate } from '../chat-template.js';
import { parseVllmModelConfig } from '../config.js';
import { FAKE_PROMPT_IDS } from './fake-vllm.js';
import { startVllmUnderTest } from './support.js';
import type { FakeVllm } from './fake-vllm.js';
import type { RunningModelServer } from './support.js';

const TOKENIZER_DIR = fileURLToPath(new URL('./fixtures/chatml-tokenizer/', import.meta.url));
const WEATHER: OpenAI.Responses.FunctionTool = { type: 'function', name: 'get_weather', description: 'Weather of a city', parameters: { type: 'object' }, strict: false };

const TOOLS_PROMPT = '<|im_start|>system\nBe brief.\n\nTools you may call:\n- get_weather: Weather of a city\n<|im_end|>\n<|im_start|>user\nWeather in Oslo?<|im_end|>\n<|im_start|>assistant\n';
const TOOL_TURN_PROMPT =
  '<|im_start|>user\nWeather in Oslo?<|im_end|>\n<|im_start|>assistant\n<tool_call>get_weather {"city":"Oslo"}</tool_call><|im_end|>\n<|im_start|>tool\ncold<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n';

describe('vllm_model with use_completions_api and the model chat template', () => {
  let vllm: FakeVllm;
  let server: RunningModelServer;
  let client: OpenAI;
  let close: () => Promise<void>;
  before(async () => {
    ({ vllm, server, client, close } = await startVllmUnderTest('Qwen/Qwen3-8B', {
      api_key: 'k',
      return_token_id_information: false,
      uses_reasoning_parser: true,
      use_completions_api: true,
      render_chat_template: true,
      tokenizer: TOKENIZER_DIR,
      extra_body: { top_k: 20 },
      sampling_overrides: { temperature: 0.6 },
    }));
  });
  after(() => close());
  beforeEach(() => vllm.requests.splice(0));
  const completionCalls = () => vllm.requests.filter((r) => r.path === '/v1/completions');

  it('renders a Responses request with its tools into the prompt and answers from /v1/completions', async () => {
    const response = await client.responses.create({ model: 'x', instructions: 'Be brief.', input: 'Weather in Oslo?', tools: [WEATHER], max_output_tokens: 64, temperature: 1 });
    assert.equal(response.output_text, 'Hello from replica.');
    assert.equal(vllm.requests.filter((r) => r.path === '/v1/chat/completions').length, 0);
    const [call] = completionCalls();
    assert.equal(call?.body?.['prompt'], TOOLS_PROMPT);
    // the configured model, extra_body underneath, the pinned sampling on top
    assert.equal(call?.body?.['model'], 'Qwen/Qwen3-8B');
    assert.equal(call?.body?.['top_k'], 20);
    assert.equal(call?.body?.['temperature'], 0.6);
    assert.equal(call?.body?.['max_tokens'], 64);
  });

  it('renders a multi-turn chat with a tool call and chat_template_kwargs from the row metadata', async () => {
    const completion = await client.chat.completions.create({
      model: 'x',
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'cold' },
      ],
      metadata: { chat_template_kwargs: '{"enable_thinking": false}' },
    });
    assert.equal(completion.choices[0]?.message.content, 'Hello from replica.');
    assert.equal(completionCalls()[0]?.body?.['prompt'], TOOL_TURN_PROMPT);
  });

  it('answers 400 when the template refuses the conversation', async () => {
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'function', content: 'x', name: 'f' }] }),
    });
    assert.equal(res.status, 400);
    assert.match(JSON.stringify(await res.json()), /refused this conversation: unexpected role function/);
    assert.equal(completionCalls().length, 0);
  });
});

describe('vllm_model with use_completions_api and no template', () => {
  let vllm: FakeVllm;
  let server: RunningModelServer;
  let client: OpenAI;
  let close: () => Promise<void>;
  before(async () => {
    ({ vllm, server, client, close } = await startVllmUnderTest('base-model', {
      api_key: 'k',
      return_token_id_information: true,
      uses_reasoning_parser: false,
      use_completions_api: true,
    }));
  });
  after(() => close());

  it('sends a system and a user message as one prompt, and returns the token ids for training', async () => {
    const completion = await client.chat.completions.create({
      model: 'x',
      messages: [
        { role: 'system', content: 'You complete text.' },
        { role: 'user', content: 'Once upon' },
      ],
    });
    const sent = vllm.requests.find((r) => r.path === '/v1/completions')!;
    assert.equal(sent.body?.['prompt'], 'You complete text.\n\nOnce upon');
    assert.equal(sent.body?.['logprobs'], 0);
    assert.equal(sent.body?.['return_token_ids'], true);
    const message = completion.choices[0]?.message as unknown as Record<string, unknown>;
    assert.equal(message['content'], 'Hello from replica.');
    assert.deepEqual(message['prompt_token_ids'], FAKE_PROMPT_IDS);
    assert.deepEqual(message['generation_token_ids'], [9906, 505, 2311, 13]);
    assert.deepEqual(message['generation_log_probs'], [-0.25, -0.5, -0.75, -1]);
  });

  it('refuses a conversation and tools, which need the template, with a 400', async () => {
    const multi = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
          { role: 'user', content: 'c' },
        ],
      }),
    });
    assert.equal(multi.status, 400);
    assert.match(JSON.stringify(await multi.json()), /render_chat_template: true/);
    const tools = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'a' }], tools: [{ type: 'function', function: { name: 'f' } }] }),
    });
    assert.equal(tools.status, 400);
  });
});

describe('where the chat template comes from', () => {
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'gym-template-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a tokenizer directory or the tokenizer_config.json itself', () => {
    assert.equal(findTokenizerConfig(TOKENIZER_DIR), join(TOKENIZER_DIR, 'tokenizer_config.json'));
    assert.equal(
      loadChatTemplate('p', join(TOKENIZER_DIR, 'tokenizer_config.json')).render({ messages: [{ role: 'user', content: 'Hi' }] }),
      '<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it('finds a model already in the local Hugging Face cache, without downloading', () => {
    const repo = join(dir, 'hub', 'models--Org--Tiny');
    mkdirSync(join(repo, 'refs'), { recursive: true });
    mkdirSync(join(repo, 'snapshots', 'abc123'), { recursive: true });
    writeFileSync(join(repo, 'refs', 'main'), 'abc123\n');
    writeFileSync(
      join(repo, 'snapshots', 'abc123', 'tokenizer_config.json'),
      JSON.stringify({ eos_token: '</s>', chat_template: '{% for m in messages %}[{{ m.role }}] {{ m.content }}{{ eos_token }}{% endfor %}' }),
    );
    const template = loadChatTemplate('p', 'Org/Tiny', { HF_HUB_CACHE: join(dir, 'hub') });
    assert.equal(template.render({ messages: [{ role: 'user', content: 'Hi' }] }), '[user] Hi</s>');
  });

  it('fails at start-up, naming what to do, when there is no local template', () => {
    assert.throws(() => loadChatTemplate('policy_model', 'Org/Missing', { HF_HUB_CACHE: join(dir, 'nowhere') }), {
      code: 'GYM_MODEL_CHAT_TEMPLATE',
      message: /does not download tokenizers.*tokenizer: <dir>/,
    });
    writeFileSync(join(dir, 'no-template.json'), JSON.stringify({ eos_token: '</s>' }));
    assert.throws(() => loadChatTemplate('policy_model', join(dir, 'no-template.json')), { code: 'GYM_MODEL_CHAT_TEMPLATE', message: /has no chat_template/ });
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ chat_template: '{% for m in messages %}' }));
    assert.throws(() => loadChatTemplate('policy_model', join(dir, 'broken.json')), { code: 'GYM_MODEL_CHAT_TEMPLATE', message: /does not parse/ });
  });

  it('accepts the completions settings in the config', () => {
    const config = parseVllmModelConfig(
      {
        base_url: 'http://x/v1',
        api_key: '',
        model: 'm',
        return_token_id_information: false,
        uses_reasoning_parser: false,
        use_completions_api: 'true',
        render_chat_template: true,
        tokenizer: '/models/m',
      },
      'p',
    );
    assert.equal(config.useCompletionsApi, true);
    assert.equal(config.renderChatTemplate, true);
    assert.equal(config.tokenizer, '/models/m');
  });
});

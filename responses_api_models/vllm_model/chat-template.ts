/**
 * The model's chat template, for `use_completions_api: true` with `render_chat_template: true`:
 * read once at start-up from the model's tokenizer files on this machine, rendered per request by
 * a real Jinja implementation (`@huggingface/jinja`, the one transformers.js uses) with what
 * `apply_chat_template` passes — messages, tools, `add_generation_prompt`, the special tokens and
 * `chat_template_kwargs`. The original loads the tokenizer with `AutoTokenizer.from_pretrained`,
 * which may download it from the Hugging Face hub; gym never downloads at run time: `tokenizer`
 * (else `model`) names a local directory or `tokenizer_config.json`, or a model already in the
 * local Hugging Face cache.
 * @module
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { Template } from '@huggingface/jinja';
import { GymUserError } from '@gym/server';
import { GymModelInputError } from './errors.js';

type Json = Record<string, unknown>;

/** The special tokens `apply_chat_template` hands every template. */
const SPECIAL_TOKENS = ['bos_token', 'eos_token', 'unk_token', 'pad_token', 'sep_token', 'cls_token', 'mask_token'] as const;

/** A parsed chat template with the tokenizer's special tokens. */
export interface ChatTemplate {
  /** Where the template was read from, for messages. */
  source: string;
  render(input: { messages: Json[]; tools?: Json[] | undefined; kwargs?: Json | undefined }): string;
}

/** The Hugging Face hub cache directory, as `huggingface_hub` resolves it. */
function hubCacheDir(env: NodeJS.ProcessEnv): string {
  if (env['HF_HUB_CACHE']) return env['HF_HUB_CACHE'];
  if (env['HF_HOME']) return join(env['HF_HOME'], 'hub');
  return join(env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'huggingface', 'hub');
}

/** `tokenizer_config.json` of `id` in the local hub cache (the snapshot `refs/main` names), if there. */
function fromHubCache(id: string, env: NodeJS.ProcessEnv): string | undefined {
  if (!/^[\w.-]+\/[\w.-]+$/.test(id)) return undefined;
  const repo = join(hubCacheDir(env), `models--${id.replace('/', '--')}`);
  try {
    const revision = readFileSync(join(repo, 'refs', 'main'), 'utf8').trim();
    const file = join(repo, 'snapshots', revision, 'tokenizer_config.json');
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** The `tokenizer_config.json` that `location` names: the file, a directory holding it, or a cached hub model. */
export function findTokenizerConfig(location: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (existsSync(location)) {
    const file = statSync(location).isDirectory() ? join(location, 'tokenizer_config.json') : location;
    return existsSync(file) ? file : undefined;
  }
  return fromHubCache(location, env);
}

/** A special token's text: a string, or an `AddedToken` object's `content`. */
function tokenText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  const content = (value as { content?: unknown } | null)?.content;
  return typeof content === 'string' ? content : undefined;
}

/** The template text of a tokenizer config: `chat_template` (a string, or named ones: `default`), else a `chat_template.jinja` beside it. */
function templateText(config: Json, file: string): string | undefined {
  const value = config['chat_template'];
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    const named = value as Array<{ name?: unknown; template?: unknown }>;
    const chosen = named.find((t) => t.name === 'default') ?? named[0];
    if (typeof chosen?.template === 'string') return chosen.template;
  }
  const beside = join(dirname(file), 'chat_template.jinja');
  return existsSync(beside) ? readFileSync(beside, 'utf8') : undefined;
}

/**
 * Loads the chat template of server `server` from `location` (its `tokenizer`, else `model`).
 * Throws a `GymUserError` naming what to fix when no local file is found, the file is not JSON,
 * it has no chat template, or the template does not parse.
 */
export function loadChatTemplate(server: string, location: string, env: NodeJS.ProcessEnv = process.env): ChatTemplate {
  const file = findTokenizerConfig(location, env);
  if (file === undefined) {
    throw new GymUserError(
      'GYM_MODEL_CHAT_TEMPLATE',
      `Model server '${server}' sets render_chat_template: true, but '${location}' is neither a local tokenizer directory, a tokenizer_config.json, nor a model in the local Hugging Face cache (${hubCacheDir(env)}). gym does not download tokenizers at run time: fetch the model's tokenizer_config.json (e.g. 'huggingface-cli download <model> tokenizer_config.json --local-dir <dir>') and set 'tokenizer: <dir>'.`,
    );
  }
  let config: Json;
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as Json;
  } catch (error) {
    throw new GymUserError('GYM_MODEL_CHAT_TEMPLATE', `Model server '${server}': ${file} is not a readable JSON file (${(error as Error).message}).`);
  }
  const text = templateText(config, file);
  if (text === undefined) {
    throw new GymUserError(
      'GYM_MODEL_CHAT_TEMPLATE',
      `Model server '${server}': ${file} has no chat_template (and there is no chat_template.jinja beside it). Point 'tokenizer:' at a model whose tokenizer ships a chat template, or set render_chat_template: false.`,
    );
  }
  let template: Template;
  try {
    template = new Template(text);
  } catch (error) {
    throw new GymUserError('GYM_MODEL_CHAT_TEMPLATE', `Model server '${server}': the chat template in ${file} does not parse (${(error as Error).message}).`);
  }
  const tokens: Json = {};
  for (const name of SPECIAL_TOKENS) {
    const token = tokenText(config[name]);
    if (token !== undefined) tokens[name] = token;
  }
  return {
    source: file,
    render: ({ messages, tools, kwargs }) => {
      try {
        return template.render({ ...tokens, ...kwargs, messages, ...(tools === undefined ? {} : { tools }), add_generation_prompt: true });
      } catch (error) {
        // a template's raise_exception() is its way of refusing a conversation (e.g. roles out of order)
        throw new GymModelInputError(`The chat template (${file}) refused this conversation: ${(error as Error).message}`);
      }
    },
  };
}

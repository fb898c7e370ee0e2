#!/usr/bin/env node
// The original's legacy commands (`ng_run`, `ng_collect_rollouts`, … and their `nemo_gym_*`
// spellings): the name this script was started under picks the `gym` command it stands for, as the
// original's own shim does; the user's Hydra-style arguments (`+config_paths=[…]`, `++key=value`)
// pass through unchanged, since gym reads them too. A one-line notice names the new command.
import { basename } from 'node:path';

/** Legacy name (without its `ng_` / `nemo_gym_` prefix) → the `gym` command it runs. */
const LEGACY = {
  run: ['env', 'start'],
  collect_rollouts: ['eval', 'run', '--no-serve'],
  e2e_collect_rollouts: ['eval', 'run'],
  aggregate_rollouts: ['eval', 'aggregate'],
  dump_config: ['env', 'resolve'],
  validate: ['env', 'validate'],
  status: ['env', 'status'],
  help: ['--help'],
  version: ['--version'],
};

// `gym eval aggregate` takes flags: the original's config keys become them. `config_paths` is not
// needed there (gym computes the metrics itself, without asking the agents).
const AGGREGATE_KEYS = { input_glob: '--input-glob', output_jsonl_fpath: '--output' };

const alias = basename(process.argv[1] ?? '').replace(/\.(mjs|js|cmd)$/, '');
const key = alias.replace(/^nemo_gym_/, '').replace(/^ng_/, '');
const tokens = Object.hasOwn(LEGACY, key) ? LEGACY[key] : undefined;

if (tokens === undefined) {
  process.stderr.write(`⚠  \`${alias}\` has no gym equivalent. Run \`gym --help\` to see the commands.\n`);
  process.exitCode = 2;
} else {
  const args = key === 'aggregate_rollouts' ? aggregateArgs(process.argv.slice(2)) : process.argv.slice(2);
  if (args !== undefined) {
    process.stderr.write(`⚠  \`${alias}\` is the original's name; it runs \`gym ${tokens.join(' ')}\` here.\n`);
    process.argv.splice(2, Infinity, ...tokens, ...args);
    await import('./gym.mjs');
  }
}

/** `+input_glob=…` / `+output_jsonl_fpath=…` as flags; any other key is refused by name. */
function aggregateArgs(argv) {
  const out = [];
  for (const arg of argv) {
    const m = /^\+{0,2}([A-Za-z_][\w.]*)=(.*)$/s.exec(arg);
    if (m === null) {
      out.push(arg);
    } else if (Object.hasOwn(AGGREGATE_KEYS, m[1])) {
      out.push(AGGREGATE_KEYS[m[1]], m[2]);
    } else if (m[1] !== 'config_paths') {
      process.stderr.write(`⚠  \`${alias}\`: '${m[1]}' is not a setting of gym eval aggregate (it takes input_glob and output_jsonl_fpath).\n`);
      process.exitCode = 2;
      return undefined;
    }
  }
  return out;
}

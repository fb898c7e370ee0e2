// A minimal `gym` program with only the trace commands, for the CLI test.
import { Command } from '@commander-js/extra-typings';
import { registerTraceCommands } from '../../src/cli.js';

const program = new Command('gym').exitOverride((err) => {
  process.exitCode = err.exitCode;
  throw err;
});
registerTraceCommands(program);
await program.parseAsync().catch(() => {});

// A CommandOutput that records what a command writes.
import type { CommandOutput } from '../../src/commands/output.js';

export function capture(): CommandOutput & { out: string; err: string } {
  const c = {
    out: '',
    err: '',
    write(t: string) {
      c.out += t;
    },
    error(t: string) {
      c.err += t;
    },
  };
  return c;
}

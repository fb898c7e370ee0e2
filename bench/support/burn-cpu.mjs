// Preload for `cpu-ab` and `profile` (GYM_SERVER_NODE_FLAGS=--import=<this file>): spends
// GYM_BENCH_BURN_US microseconds of pure CPU at every HTTP request of one kind of server
// (GYM_BENCH_BURN_WHERE, a substring of its app path; default the agent). It prices how CPU added
// to the busiest process turns into CPU per rollout of the whole environment, with no memory,
// garbage or cache effects of its own — what telemetry's in-situ cost is compared against.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const burnUs = Number(process.env.GYM_BENCH_BURN_US ?? 0);
const where = process.env.GYM_BENCH_BURN_WHERE ?? 'simple_agent';
if (burnUs > 0 && (process.argv[2] ?? '').includes(where)) {
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, ...args) {
    if (event === 'request') {
      const end = performance.now() + burnUs / 1000;
      while (performance.now() < end);
    }
    return emit.call(this, event, ...args);
  };
}

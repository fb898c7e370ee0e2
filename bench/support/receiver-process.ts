// A `gym trace receive` receiver in a process of its own, for otlp-receiver.bench.ts: @gym/trace's,
// or with GYM_RECEIVER_ROOT that of another checkout (to compare two versions side by side),
// writing to GYM_RECEIVER_OUT. Prints {"port"} once listening; a line on stdin starts its CPU
// clock, the next prints {"cpuMs"} and stops it.
import { createInterface } from 'node:readline';

type Trace = typeof import('@gym/trace');
const root = process.env.GYM_RECEIVER_ROOT;
const { startOtlpReceiver } = root === undefined ? await import('@gym/trace') : ((await import(`${root}/packages/trace/src/index.ts`)) as Trace);
const rx = await startOtlpReceiver({ outDir: process.env.GYM_RECEIVER_OUT!, grpcPort: 0, httpPort: null });
console.log(JSON.stringify({ port: rx.grpcPort }));
let started: NodeJS.CpuUsage | undefined;
for await (const _ of createInterface({ input: process.stdin })) {
  if (started === undefined) {
    started = process.cpuUsage();
    continue;
  }
  const used = process.cpuUsage(started);
  console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000 }));
  break;
}
// after the answer: closing waits for the sender's connection to end
await rx.close();
process.exit(0);

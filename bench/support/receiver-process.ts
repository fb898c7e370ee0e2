// A `gym trace receive` receiver in a process of its own, for otlp-receiver.bench.ts: started from
// the checkout at GYM_RECEIVER_ROOT (another checkout, to compare two versions side by side),
// writing to GYM_RECEIVER_OUT. Prints {"port"} once listening; a line on stdin starts its CPU
// clock, the next prints {"cpuMs"} and stops it.
import { createInterface } from 'node:readline';

const root = process.env.GYM_RECEIVER_ROOT!;
const { startOtlpReceiver } = (await import(`${root}/packages/trace/src/receive/receiver.ts`)) as typeof import('@gym/trace');
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

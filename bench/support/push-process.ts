// One `gym trace push` in a process of its own, for trace-push.bench.ts: @gym/trace's, or with
// GYM_PUSH_ROOT that of another checkout (to compare two versions side by side). Pushes
// GYM_PUSH_RUN to GYM_PUSH_ENDPOINT over GYM_PUSH_PROTOCOL and prints {"code","wallMs","cpuMs"}.
type Trace = typeof import('@gym/trace');
const root = process.env.GYM_PUSH_ROOT;
const { push } = root === undefined ? await import('@gym/trace') : ((await import(`${root}/packages/trace/src/index.ts`)) as Trace);
const quiet = { write: () => undefined, error: (text: string) => void process.stderr.write(text) };
const cpu = process.cpuUsage();
const started = performance.now();
const code = await push({ paths: [process.env.GYM_PUSH_RUN!], endpoint: process.env.GYM_PUSH_ENDPOINT!, protocol: process.env.GYM_PUSH_PROTOCOL as 'grpc' }, quiet);
const used = process.cpuUsage(cpu);
console.log(JSON.stringify({ code, wallMs: performance.now() - started, cpuMs: (used.user + used.system) / 1000 }));

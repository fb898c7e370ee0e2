// Preload for a server (GYM_SERVER_NODE_FLAGS=--import=<this file>): samples every allocation, the
// ones already collected included, and writes a .heapprofile (open it in Chrome DevTools, Memory)
// to GYM_ALLOC_PROFILE_DIR (default: the temp dir) GYM_ALLOC_PROFILE_AFTER_MS after start-up
// (default 30 s). Answers "what does a rollout allocate", which a heap snapshot (what is alive)
// does not.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const session = new Session();
session.connect();
const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
await post('HeapProfiler.enable');
await post('HeapProfiler.startSampling', { samplingInterval: 16384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
setTimeout(
  async () => {
    const { profile } = await post('HeapProfiler.stopSampling');
    writeFileSync(join(process.env.GYM_ALLOC_PROFILE_DIR ?? tmpdir(), `allocations-${process.pid}.heapprofile`), JSON.stringify(profile));
  },
  Number(process.env.GYM_ALLOC_PROFILE_AFTER_MS ?? 30_000),
).unref();

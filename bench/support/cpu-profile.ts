// Self time per frame of a V8 `.cpuprofile` (what `node --cpu-prof` writes), heaviest first, and
// the time of samples whose stack passes through telemetry code (inclusive), by module group.
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  totalMs: number;
  rows: Array<{ frame: string; ms: number; percent: number }>;
  /** Inclusive time of stacks passing through each group of modules (a stack counts once per group). */
  through: Array<{ group: string; ms: number; percent: number }>;
}

const GROUPS: Array<[string, RegExp]> = [
  ['@opentelemetry/*', /node_modules\/@opentelemetry\//],
  ['@gym/lens', /packages\/lens\//],
  ['server telemetry/', /packages\/server\/src\/telemetry\//],
  ['async_hooks (context propagation)', /node:async_hooks|node:internal\/async_hooks|node:internal\/async_local_storage/],
  ['fastify', /node_modules\/fastify\//],
  ['undici', /node_modules\/undici\//],
  ['zod', /node_modules\/zod\//],
  ['garbage collector', /^\(garbage collector\)$/],
];

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file =
    url === ''
      ? ''
      : url
          .replace(/^file:\/\//, '')
          .replace(/^.*\/node_modules\//, '')
          .replace(/^.*\/(packages|responses_api_\w+|resources_servers)\//, '$1/');
  return `${functionName || '(anonymous)'}${file === '' ? '' : ` ${file}:${lineNumber + 1}`}`;
}

export function summarizeProfile(profile: CpuProfile, top: number): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const groupsOf = new Map<number, Set<string>>();
  const groupsFor = (id: number): Set<string> => {
    let cached = groupsOf.get(id);
    if (cached !== undefined) return cached;
    const parent = parentOf.get(id);
    cached = new Set(parent === undefined ? [] : groupsFor(parent));
    const node = byId.get(id)!;
    const text = node.callFrame.url === '' ? node.callFrame.functionName : node.callFrame.url;
    for (const [group, pattern] of GROUPS) if (pattern.test(text)) cached.add(group);
    groupsOf.set(id, cached);
    return cached;
  };
  const selfUs = new Map<string, number>();
  const throughUs = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (node === undefined) return;
    const name = frameName(node);
    if (name.startsWith('(idle)')) return;
    totalUs += delta;
    selfUs.set(name, (selfUs.get(name) ?? 0) + delta);
    for (const group of groupsFor(id)) throughUs.set(group, (throughUs.get(group) ?? 0) + delta);
  });
  const rows = [...selfUs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([frame, us]) => ({ frame, ms: us / 1000, percent: (us / totalUs) * 100 }));
  const through = GROUPS.map(([group]) => ({ group, ms: (throughUs.get(group) ?? 0) / 1000, percent: ((throughUs.get(group) ?? 0) / totalUs) * 100 }));
  return { totalMs: totalUs / 1000, rows, through };
}

/** Where telemetry's code is: lens, the server's telemetry layer, the OpenTelemetry SDK, undici's diagnostics channels. */
const TELEMETRY = /packages\/lens\/|packages\/server\/src\/telemetry\/|node_modules\/@opentelemetry\/|diagnostics_channel/;
/** Code that is someone else's: a sample whose innermost such frame comes first is not telemetry's. */
const OTHER_CODE = /packages\/|node_modules\/|responses_api_|resources_servers/;

/**
 * Telemetry's own frames: each sample goes to the innermost frame of gym's code or a library on its
 * stack (Node's internals and natives go to their caller), and counts when that frame is
 * telemetry's. Samples are counted, each worth the profile's median interval: a sample's own time
 * delta is wall time, so one taken after the thread was preempted would carry the whole wait.
 */
export function telemetryFrames(profile: CpuProfile, top: number): { intervalUs: number; totalMs: number; rows: Array<{ frame: string; ms: number }> } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const owners = new Map<number, string | undefined>();
  const ownerOf = (id: number): string | undefined => {
    if (owners.has(id)) return owners.get(id);
    const node = byId.get(id)!;
    const url = node.callFrame.url;
    const parent = parentOf.get(id);
    const owner = TELEMETRY.test(url) ? frameName(node) : OTHER_CODE.test(url) || parent === undefined ? undefined : ownerOf(parent);
    owners.set(id, owner);
    return owner;
  };
  const intervalUs = [...profile.timeDeltas].sort((a, b) => a - b)[profile.timeDeltas.length >> 1] ?? 0;
  const samples = new Map<string, number>();
  let total = 0;
  for (const id of profile.samples) {
    const owner = ownerOf(id);
    if (owner === undefined) continue;
    samples.set(owner, (samples.get(owner) ?? 0) + 1);
    total++;
  }
  const rows = [...samples]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([frame, count]) => ({ frame, ms: (count * intervalUs) / 1000 }));
  return { intervalUs, totalMs: (total * intervalUs) / 1000, rows };
}

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
  ['runtime telemetry/', /packages\/runtime\/src\/telemetry\//],
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

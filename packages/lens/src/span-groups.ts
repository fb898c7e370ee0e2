/**
 * The span-group gate: which groups are enabled right now.
 *
 * A call site holds a {@link SpanGroup} and reads `group.enabled` before it builds attributes,
 * formats strings or touches a tracer. Every gate is an instance of one class with one boolean field,
 * so the check is a single monomorphic field load; the fields are rewritten whenever the spec or
 * the registry changes, never looked up per call.
 * @module
 */
import { SpanRegistry } from './span-registry.js';
import { lensWarn, LENS_WARNINGS } from './warnings.js';

/** The gate of one span group. `enabled` is kept current by lens; never write it yourself. */
export class SpanGroup {
  readonly name: string;
  enabled: boolean;

  constructor(name: string, enabled: boolean) {
    this.name = name;
    this.enabled = enabled;
  }
}

const gates = new Map<string, SpanGroup>();
/** Gate objects of other libraries, kept current with lens's own (see {@link bindSpanGroupGate}). */
const boundGates = new Map<string, Array<Pick<SpanGroup, 'enabled'>>>();
let enabledSet: ReadonlySet<string> = new Set();
let pendingSet: ReadonlySet<string> = new Set();
/** The spec last set with {@link setSpanGroupSpec}; `undefined` when a set is pinned. */
let spec: string | undefined;
let lastWarningKey = '';

SpanRegistry.onChange(refreshEnabledSpanGroups);

function apply(enabled: ReadonlySet<string>): void {
  enabledSet = enabled;
  // a gate cached under several spellings is visited once per spelling; harmless
  for (const gate of gates.values()) gate.enabled = enabled.has(gate.name);
  for (const [name, bound] of boundGates) for (const gate of bound) gate.enabled = enabled.has(name);
}

/**
 * Keeps `gate.enabled` equal to whether group `name` is enabled, now and after every later change
 * of the spec or the registry — for a library that holds its own gate objects because it cannot
 * import lens before it knows telemetry is on. Returns a function that unbinds it (and leaves it false).
 */
export function bindSpanGroupGate(name: string, gate: Pick<SpanGroup, 'enabled'>): () => void {
  const key = name.trim().toLowerCase();
  const bound = boundGates.get(key) ?? [];
  bound.push(gate);
  boundGates.set(key, bound);
  gate.enabled = enabledSet.has(key);
  return () => {
    const index = bound.indexOf(gate);
    if (index !== -1) bound.splice(index, 1);
    gate.enabled = false;
  };
}

/**
 * The gate object for `name` (normalised to trimmed lower case). The same object is returned for
 * the same name, so it can be captured once at module scope.
 * @example
 * const ROLLOUT = spanGroup('rollout');
 * if (ROLLOUT.enabled) span.setAttribute('nemo.gym.rollout.id', id);
 */
export function spanGroup(name: string): SpanGroup {
  let gate = gates.get(name);
  if (gate !== undefined) return gate;
  const key = name.trim().toLowerCase();
  gate = gates.get(key);
  if (gate === undefined) {
    gate = new SpanGroup(key, enabledSet.has(key));
    gates.set(key, gate);
  }
  gates.set(name, gate);
  return gate;
}

/** Whether a group is enabled, for names only known at run time. Prefer {@link spanGroup}. */
export function isSpanGroupEnabled(name: string): boolean {
  // gates are cached by the caller's spelling too, so a repeated name costs one map lookup
  return (gates.get(name) ?? spanGroup(name)).enabled;
}

/**
 * Selects the enabled groups by a spec string (comma list of presets and groups, `all`), resolved
 * now and again whenever the registry changes, so groups registered later are enabled when the spec
 * named them. Unknown names are warned about once, with the known names. Never throws.
 */
export function setSpanGroupSpec(newSpec: string): void {
  spec = newSpec;
  lastWarningKey = '';
  refreshEnabledSpanGroups();
}

/**
 * Pins the enabled set to exactly `groups` and forgets any spec, so later registrations cannot
 * enable anything (what a disabled process and tests use).
 */
export function setEnabledSpanGroups(groups: Iterable<string>): void {
  spec = undefined;
  pendingSet = new Set();
  lastWarningKey = '';
  apply(new Set([...groups].map((g) => g.trim().toLowerCase())));
}

/** Re-resolves the stored spec against the registry. Called by lens after every registry change. */
export function refreshEnabledSpanGroups(): void {
  if (spec === undefined) return;
  const { enabled, pending } = SpanRegistry.resolve(spec);
  pendingSet = pending;
  apply(enabled);
  report(spec, enabled, pending);
}

/** The groups enabled now. */
export function enabledSpanGroups(): ReadonlySet<string> {
  return enabledSet;
}

/** Spec entries that named nothing registered (yet). */
export function pendingSpanGroups(): ReadonlySet<string> {
  return pendingSet;
}

/** The spec in force, or `undefined` when a set is pinned or nothing was set. */
export function spanGroupSpec(): string | undefined {
  return spec;
}

function report(currentSpec: string, enabled: ReadonlySet<string>, pending: ReadonlySet<string>): void {
  if (currentSpec.trim() === '') return;
  const registryEmpty = SpanRegistry.namespaces().length === 0;
  const key = `${[...pending].sort().join(',')}|${registryEmpty}|${enabled.size === 0}`;
  if (key === lastWarningKey) return;
  lastWarningKey = key;
  if (registryEmpty) {
    lensWarn(LENS_WARNINGS.SPEC_EMPTY_REGISTRY, `Span groups '${currentSpec}' were requested, but no library has registered any span groups in this process; nothing group-gated will be emitted.`);
  } else if (pending.size > 0) {
    lensWarn(LENS_WARNINGS.SPEC_UNKNOWN, `Span-group spec '${currentSpec}' names unknown entries: ${[...pending].sort().join(', ')}. ${known()} A typo, or a library not loaded in this process.`);
  } else if (enabled.size === 0) {
    lensWarn(LENS_WARNINGS.SPEC_SELECTS_NOTHING, `Span-group spec '${currentSpec}' resolved to no span groups at all. ${known()}`);
  }
}

function known(): string {
  const presets = [...SpanRegistry.presets().keys()].sort();
  return `Known presets: ${presets.join(', ')}; groups: ${[...SpanRegistry.groups()].sort().join(', ')}; namespaces: ${SpanRegistry.namespaces().join(', ')}.`;
}

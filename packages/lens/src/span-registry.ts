/**
 * The span-group registry: which libraries declared which groups and presets.
 *
 * Lens defines no groups itself. Each instrumented library registers its vocabulary under a
 * namespace (gym registers `job`, `rollout`, … under `gym`); a spec string such as
 * `default,model_call` is then resolved against everything registered in this process.
 * @module
 */
import { lensWarn, LENS_WARNINGS } from './warnings.js';

/** The reserved preset that selects every registered group. */
export const ALL = 'all';

/** What one namespace declares. */
export interface SpanGroupDeclaration {
  /** Group names; normalised to trimmed lower case. */
  groups: Iterable<string>;
  /** Preset name → member groups. Presets of the same name merge across namespaces. */
  presets?: Record<string, Iterable<string>>;
}

/** Options of {@link SpanRegistry.register}. */
export interface RegisterOptions {
  /** Replace an existing registration of this namespace and share groups silently. */
  allowOverride?: boolean;
}

/** The result of resolving a spec: enabled groups, and entries nothing has registered yet. */
export interface SpecResolution {
  enabled: ReadonlySet<string>;
  pending: ReadonlySet<string>;
}

interface Entry {
  groups: ReadonlySet<string>;
  presets: ReadonlyMap<string, ReadonlySet<string>>;
}

const normalise = (name: string): string => name.trim().toLowerCase();

/** Splits a spec string into normalised entries, dropping empty ones. */
export function parseSpec(spec: string): string[] {
  return spec
    .split(',')
    .map(normalise)
    .filter((entry) => entry.length > 0);
}

type Listener = () => void;

/** The registry's surface (the no-op fallback implements the same). */
export interface SpanRegistryApi {
  register(namespace: string, declaration: SpanGroupDeclaration, options?: RegisterOptions): void;
  unregister(namespace: string): void;
  clear(): void;
  groups(): ReadonlySet<string>;
  namespaces(): string[];
  presets(): ReadonlyMap<string, ReadonlySet<string>>;
  resolve(spec: string): SpecResolution;
  onChange(listener: () => void): () => void;
}

/**
 * Process-wide registry of span groups and presets, by namespace.
 *
 * Registration happens at import time where no caller could catch an exception, so collisions and
 * presets naming unknown groups are coded warnings; only an empty namespace or group name, or a
 * group or preset named `all`, throws.
 */
class Registry implements SpanRegistryApi {
  readonly #entries = new Map<string, Entry>();
  readonly #listeners = new Set<Listener>();

  /** Registers (or with `allowOverride`, replaces) a namespace's groups and presets. */
  register(namespace: string, declaration: SpanGroupDeclaration, options: RegisterOptions = {}): void {
    const ns = namespace.trim();
    if (ns.length === 0) throw new TypeError('SpanRegistry.register: namespace must be a non-empty string');
    const groups = new Set<string>();
    for (const raw of declaration.groups) {
      const group = normalise(String(raw));
      if (group.length === 0) throw new TypeError(`SpanRegistry.register('${ns}'): empty group name`);
      if (group === ALL) throw new TypeError(`SpanRegistry.register('${ns}'): '${ALL}' is reserved and cannot be a group`);
      groups.add(group);
    }
    if (this.#entries.has(ns) && !options.allowOverride) {
      throw new TypeError(`SpanRegistry.register: namespace '${ns}' is already registered. Pass { allowOverride: true } to replace it.`);
    }
    const others = this.#groupsExcept(ns);
    const presets = new Map<string, ReadonlySet<string>>();
    const deferred: string[] = [];
    for (const [rawName, members] of Object.entries(declaration.presets ?? {})) {
      const name = normalise(rawName);
      if (name === ALL) throw new TypeError(`SpanRegistry.register('${ns}'): '${ALL}' is reserved and cannot be a preset`);
      const set = new Set([...members].map((m) => normalise(String(m))).filter((m) => m.length > 0));
      for (const member of set) if (!groups.has(member) && !others.has(member)) deferred.push(`${name}:${member}`);
      presets.set(name, set);
    }
    const collisions = options.allowOverride ? [] : [...groups].filter((g) => others.has(g));
    this.#entries.set(ns, { groups, presets });

    for (const group of collisions) {
      lensWarn(
        LENS_WARNINGS.GROUP_COLLISION,
        `Span group '${group}' registered by namespace '${ns}' is also registered by another namespace; both share one gate. Pass { allowOverride: true } if that is intended.`,
      );
    }
    if (deferred.length > 0) {
      lensWarn(
        LENS_WARNINGS.PRESET_DEFERRED,
        `Presets of namespace '${ns}' name groups nothing has registered: ${deferred.join(', ')}. They take effect if their owner registers later; a typo selects less.`,
      );
    }
    this.#notify();
  }

  /** Removes a namespace. Throws if it was never registered. */
  unregister(namespace: string): void {
    if (!this.#entries.delete(namespace.trim())) throw new TypeError(`SpanRegistry.unregister: namespace '${namespace}' is not registered`);
    this.#notify();
  }

  /** Drops every registration (a test hook). */
  clear(): void {
    this.#entries.clear();
    this.#notify();
  }

  /** Every registered group. */
  groups(): ReadonlySet<string> {
    return this.#groupsExcept(undefined);
  }

  /** Registered namespaces, sorted. */
  namespaces(): string[] {
    return [...this.#entries.keys()].sort();
  }

  /** Presets merged by name across namespaces, limited to registered groups, plus `all`. */
  presets(): ReadonlyMap<string, ReadonlySet<string>> {
    const live = this.groups();
    const merged = new Map<string, Set<string>>();
    for (const entry of this.#entries.values()) {
      for (const [name, members] of entry.presets) {
        const set = merged.get(name) ?? new Set<string>();
        for (const member of members) if (live.has(member)) set.add(member);
        merged.set(name, set);
      }
    }
    merged.set(ALL, new Set(live));
    return merged;
  }

  /** Resolves a spec string: presets first, then groups, anything else pending. Never throws. */
  resolve(spec: string): SpecResolution {
    const groups = this.groups();
    const presets = this.presets();
    const enabled = new Set<string>();
    const pending = new Set<string>();
    for (const entry of parseSpec(spec)) {
      const preset = presets.get(entry);
      if (preset) for (const g of preset) enabled.add(g);
      else if (groups.has(entry)) enabled.add(entry);
      else pending.add(entry);
    }
    return { enabled, pending };
  }

  /** Calls `listener` after every change; returns the function that removes it. */
  onChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #groupsExcept(namespace: string | undefined): Set<string> {
    const out = new Set<string>();
    for (const [ns, entry] of this.#entries) if (ns !== namespace) for (const g of entry.groups) out.add(g);
    return out;
  }

  #notify(): void {
    for (const listener of this.#listeners) listener();
  }
}

/** The process-wide span-group registry. */
export const SpanRegistry: SpanRegistryApi = new Registry();

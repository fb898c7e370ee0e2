/**
 * `show` without a selector (the list) and `show --failed` on a run too large to read whole: the
 * store walked in batches of whole traces, as `stats` walks it, so that memory stays bounded by
 * the batch. The whole read lists rollouts by their start and traces by their first span in the
 * input; the batches come by the start of their trace instead. So each rollout's JSON entry or
 * failed view is made as its batch arrives and spooled to disk with its place in the whole read's
 * order (`sorted-spool.ts`), and at the end written out in that order: the same bytes as the whole
 * read. The text list shows 50 rows: those are kept in memory, the others only counted.
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectionsOf } from '../analyze/cold-start.js';
import { isFailed, verdictOf } from '../analyze/verdict.js';
import { assembleTraces } from '../assemble/assemble-traces.js';
import { outermostOf } from '../assemble/rollouts.js';
import type { Rollout } from '../assemble/rollouts.js';
import type { SpanNode, Trace } from '../assemble/trace-model.js';
import { JsonElements, toJson, toJsonElement, writeJsonObject } from '../render/format.js';
import { nsToMs, SPAN } from '../span-record.js';
import type { SpanSource } from '../span-record.js';
import { sqlString } from '../store/duck.js';
import type { TraceStore } from '../store/open-store.js';
import { readAllSpans, spanRows } from '../store/store-read.js';
import { stoppable } from '../store/stop-conversion.js';
import { resolvePaths } from './default-paths.js';
import { batchBytes, readStoreInBatches } from './load-batches.js';
import type { Batch } from './load-batches.js';
import { withStore } from './load.js';
import type { CommandOutput } from './output.js';
import { hasError, LIST_LIMIT, listJob, listTrace, renderListSummary, rolloutEntry, rolloutView, traceView, viewJson, viewStyle, viewText } from './show-views.js';
import type { ShowOptions } from './show.js';
import type { ListJob, ListRollout, ListTrace, View, ViewStyle } from './show-views.js';
import { SortedSpool } from './sorted-spool.js';

/**
 * Prints the list (or with `failed`, the failed rollouts) of a run too large to read whole, and
 * returns true; returns false, having printed nothing, when the run is small enough to read whole
 * or the whole read would show one rollout or trace rather than a list (the caller reads it).
 */
export async function showLargeRun(options: ShowOptions, out: CommandOutput): Promise<boolean> {
  const paths = await resolvePaths(options.paths, options.cwd, out);
  return withStore(paths, out, async (store) => {
    if (store.stats.bytes <= batchBytes()) return false;
    const style = viewStyle(options);
    // Ctrl-C stops the walk at its next batch (or DuckDB's query), so that the spool, up to the
    // size of the output, is removed below rather than left in the temporary directory
    return stoppable(store.duck, async (stopped) => {
      const dir = await mkdtemp(join(tmpdir(), 'gym-trace-show-'));
      try {
        const walk = new RunWalk(store, dir, options.failed === true, style);
        try {
          await readStoreInBatches(store, paths, (batch) => {
            if (stopped()) throw new Error('stopped');
            walk.add(batch);
          });
          walk.finish();
          if (options.failed !== true) return await walk.writeList(out);
          await walk.writeFailed(out);
          return true;
        } finally {
          walk.close();
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}

/** A place in the input: its file's position among the input's files, then its line. */
const LINES_PER_FILE = 1_000_000_000_000n;

/** A `gym.job` root met on the walk. */
interface WalkJob {
  traceId: string;
  spanId: string;
  startNs: bigint;
  /** Where its trace begins in the input (set when the trace is whole). */
  tracePos: bigint;
}

/** A trace as its parts arrive (a trace split over batches comes in consecutive ones). */
interface TraceInProgress {
  traceId: string;
  no: number;
  parts: number;
  firstPos: bigint;
  startNs: bigint;
  endNs: bigint;
  spans: number;
  services: Set<string>;
  roots: Array<{ startNs: bigint; spanId: string; name: string }>;
  /** Its entry, when it is whole in one part. */
  whole: ListTrace | null;
  jobs: WalkJob[];
  /** Its failed view (made from its first part with an error), when one of its parts has one. */
  failedView: string | null;
}

/** What the walk over the batches keeps: counts, the jobs, and the spooled entries or views. */
class RunWalk {
  readonly #store: TraceStore;
  readonly #failedOnly: boolean;
  readonly #style: ViewStyle;
  readonly #fileNo: Map<string, number>;
  /** Each trace's number (in the order of the walk) and first place in the input; its JSON entry. */
  readonly #traces: SortedSpool;
  /** Each rollout's JSON entry (or failed view) by its start, its trace's number and its place. */
  readonly #rollouts: SortedSpool;
  /** The failed traces' views by trace number, while the run shows no rollout. */
  readonly #failedTraces: SortedSpool;
  /** Failed traces split over batches, drawn at the end from a read of the trace alone. */
  readonly #rereads: Array<{ traceId: string; no: number }> = [];
  readonly #jobs: WalkJob[] = [];
  readonly #jobTraces = new Set<string>();
  /** Rollouts by what ties them to a job: their links' span ids, and their trace when it holds a job. */
  readonly #jobTies = new Map<string, number>();
  /** The text's rows: the first rollouts (and traces, in a run without rollouts), kept in memory. */
  readonly #firstRollouts = new FirstOf<{ startNs: bigint; trace: TraceInProgress; pos: bigint; entry: ListRollout }>(
    (r) => r.startNs,
    (a, b) => compare(a.trace.firstPos, b.trace.firstPos) || compare(a.pos, b.pos),
  );
  readonly #firstTraces = new FirstOf<{ firstPos: bigint; entry: ListTrace }>(
    (t) => t.firstPos,
    () => 0,
  );
  #rolloutCount = 0;
  #cold = 0;
  #traceCount = 0;
  #current: TraceInProgress | null = null;

  constructor(store: TraceStore, dir: string, failedOnly: boolean, style: ViewStyle) {
    this.#store = store;
    this.#failedOnly = failedOnly;
    this.#style = style;
    // as the store's rows name their files (`spanRows`), numbered as the input orders them
    this.#fileNo = new Map();
    store.files.forEach((f, i) => {
      const name = store.givenPath.get(f.path) ?? f.path;
      if (!this.#fileNo.has(name)) this.#fileNo.set(name, i + 1);
    });
    this.#traces = new SortedSpool(dir, 'traces', ['trace_no', 'first_pos']);
    this.#rollouts = new SortedSpool(dir, 'rollouts', ['start_ns', 'trace_no', 'pos']);
    this.#failedTraces = new SortedSpool(dir, 'failed-traces', ['trace_no']);
  }

  add(batch: Batch): void {
    const traces = new Map<string, TraceInProgress>();
    for (const trace of batch.set.traces.values()) traces.set(trace.traceId, this.#addTracePart(trace, batch.shared));
    for (const r of batch.rollouts) this.#addRollout(r, traces.get(r.traceId)!);
  }

  #addTracePart(trace: Trace, shared: ReadonlySet<string> | null): TraceInProgress {
    let t = this.#current;
    if (t === null || t.traceId !== trace.traceId) {
      this.#finishTrace();
      this.#current = t = {
        traceId: trace.traceId,
        no: ++this.#traceCount,
        parts: 0,
        firstPos: -1n,
        startNs: trace.startNs,
        endNs: trace.endNs,
        spans: 0,
        services: new Set(),
        roots: [],
        whole: null,
        jobs: [],
        failedView: null,
      };
    }
    const split = shared !== null && shared.size > 0 && trace.roots.some((r) => shared.has(r.span.spanId) || !isTrueRoot(r));
    const first = this.#posOf(split ? firstInInput(trace, this.#fileNo) : trace.nodes.values().next().value!);
    if (t.parts++ === 0 || first < t.firstPos) t.firstPos = first;
    if (trace.startNs < t.startNs) t.startNs = trace.startNs;
    if (trace.endNs > t.endNs) t.endNs = trace.endNs;
    t.spans += trace.nodes.size;
    for (const s of trace.services) t.services.add(s);
    // a subtree of a split trace is a root of its part, under the trace's root in another part
    const roots = split ? trace.roots.filter(isTrueRoot) : trace.roots;
    for (const r of roots) t.roots.push({ startNs: r.span.startNs, spanId: r.span.spanId, name: r.span.name });
    t.whole =
      t.parts === 1 && !split
        ? listTrace(
            trace.traceId,
            trace.durationMs,
            trace.nodes.size,
            trace.roots.map((n) => n.span.name),
            trace.services,
          )
        : null;
    for (const r of roots)
      if (r.span.name === SPAN.JOB) {
        const job = { traceId: trace.traceId, spanId: r.span.spanId, startNs: r.span.startNs, tracePos: 0n };
        this.#jobs.push(job);
        t.jobs.push(job);
        this.#jobTraces.add(trace.traceId);
      }
    // the failed traces count only in a run without rollouts
    if (this.#failedOnly && this.#rolloutCount === 0 && hasError(trace.roots)) t.failedView ??= this.#viewText(traceView(trace));
    return t;
  }

  #finishTrace(): void {
    const t = this.#current;
    if (t === null) return;
    this.#current = null;
    for (const job of t.jobs) job.tracePos = t.firstPos;
    const entry =
      t.whole ??
      listTrace(
        t.traceId,
        nsToMs(t.endNs - t.startNs),
        t.spans,
        t.roots.sort(byStart).map((r) => r.name),
        [...t.services].sort(),
      );
    // the traces' order sorts the JSON's rollouts and traces, and the failed views
    const json = !this.#failedOnly && this.#style.format === 'json';
    if (json || this.#failedOnly) this.#traces.add([t.no, t.firstPos], json ? toJsonElement(entry, { plain: true }) : '');
    // the text lists traces only when there are no rollouts
    else if (this.#rolloutCount === 0 && this.#firstTraces.wants(t.firstPos)) this.#firstTraces.add({ firstPos: t.firstPos, entry });
    if (t.failedView !== null && this.#rolloutCount === 0) {
      if (t.parts === 1) this.#failedTraces.add([t.no], t.failedView);
      else this.#rereads.push({ traceId: t.traceId, no: t.no });
    }
  }

  #addRollout(r: Rollout, trace: TraceInProgress): void {
    this.#rolloutCount++;
    const links =
      outermostOf(r)
        .span.links?.map((l) => l.spanId)
        .join(' ') ?? '';
    const tie = `${links}\n${this.#jobTraces.has(r.traceId) ? r.traceId : ''}`;
    this.#jobTies.set(tie, (this.#jobTies.get(tie) ?? 0) + 1);
    const startNs = r.node.span.startNs;
    const pos = this.#posOf(r.node);
    const keys = [startNs, trace.no, pos];
    if (this.#failedOnly) {
      if (isFailed(verdictOf(r))) this.#rollouts.add(keys, this.#viewText(rolloutView(r)));
    } else if (this.#style.format === 'json') {
      const entry = rolloutEntry(r);
      if (entry.connections.opened > 0) this.#cold++;
      this.#rollouts.add(keys, toJsonElement(entry, { plain: true }));
    } else if (this.#firstRollouts.wants(startNs)) {
      const entry = rolloutEntry(r);
      if (entry.connections.opened > 0) this.#cold++;
      this.#firstRollouts.add({ startNs, trace, pos, entry });
    } else if (connectionsOf(outermostOf(r)).opened > 0) this.#cold++;
  }

  /** A failed view as the output takes it: an element of `views`, or a tree's text. */
  #viewText(v: View): string {
    return this.#style.format === 'json' ? toJsonElement(viewJson(v, this.#style)) : viewText(v, this.#style);
  }

  #posOf(node: SpanNode): bigint {
    return placeOf(this.#fileNo, node.span.source);
  }

  finish(): void {
    this.#finishTrace();
  }

  /** The jobs as `findJobs` gives them: by start, with the rollouts tied to each. */
  #listJobs(): ListJob[] {
    if (this.#jobs.length === 0) return [];
    const bySpan = new Map(this.#jobs.map((j) => [j.spanId, j]));
    const byTrace = new Map(this.#jobs.map((j) => [j.traceId, j]));
    const counts = new Map<WalkJob, number>();
    for (const [tie, n] of this.#jobTies) {
      const [links, trace] = tie.split('\n') as [string, string];
      const linked = links === '' ? undefined : links.split(' ').find((id) => bySpan.has(id));
      const job = linked === undefined ? byTrace.get(trace) : bySpan.get(linked);
      if (job !== undefined) counts.set(job, (counts.get(job) ?? 0) + n);
    }
    const jobs = [...this.#jobs].sort((a, b) => compare(a.startNs, b.startNs) || compare(a.tracePos, b.tracePos) || compare(a.spanId, b.spanId));
    return jobs.map((j) => listJob(j.traceId, j.spanId, counts.get(j) ?? 0));
  }

  /** Writes the list; false when the whole read shows one rollout or trace instead (nothing written). */
  async writeList(out: CommandOutput): Promise<boolean> {
    if (this.#rolloutCount === 1 || (this.#rolloutCount === 0 && this.#traceCount === 1)) return false;
    if (this.#style.format === 'json') {
      const c = this.#store.duck.connection;
      const rollouts = this.#rollouts.texts(c, `SELECT r.off, r.len FROM ${this.#rollouts.table()} r JOIN ${this.#traces.table()} t USING (trace_no) ORDER BY r.start_ns, t.first_pos, r.pos`);
      const traces = this.#traces.texts(c, `SELECT off, len FROM ${this.#traces.table()} ORDER BY first_pos, trace_no`);
      const fields = [
        ['type', 'list'],
        ['rollouts', new JsonElements(rollouts)],
        ['traces', new JsonElements(traces)],
        ['jobs', this.#listJobs()],
      ] as const;
      await writeJsonObject(fields, (text) => out.write(text));
      return true;
    }
    const summary = {
      rollouts: this.#rolloutCount,
      traces: this.#traceCount,
      spans: this.#store.stats.spans,
      jobs: this.#listJobs(),
      cold: this.#cold,
      firstRollouts: this.#firstRollouts.first().map((r) => r.entry),
      firstTraces: this.#rolloutCount > 0 ? [] : this.#firstTraces.first().map((t) => t.entry),
    };
    out.write(renderListSummary(summary, this.#style.format, this.#style.width));
    return true;
  }

  /** Writes the failed rollouts' views (the failed traces' in a run without rollouts). */
  async writeFailed(out: CommandOutput): Promise<void> {
    const c = this.#store.duck.connection;
    let views: AsyncIterable<string>;
    if (this.#rolloutCount > 0)
      views = this.#rollouts.texts(c, `SELECT r.off, r.len FROM ${this.#rollouts.table()} r JOIN ${this.#traces.table()} t USING (trace_no) ORDER BY r.start_ns, t.first_pos, r.pos`);
    else {
      for (const { traceId, no } of this.#rereads) this.#failedTraces.add([no], this.#viewText(traceView(await this.#readTrace(traceId))));
      views = this.#failedTraces.texts(c, `SELECT f.off, f.len FROM ${this.#failedTraces.table()} f JOIN ${this.#traces.table()} t USING (trace_no) ORDER BY t.first_pos, t.trace_no`);
    }
    const json = this.#style.format === 'json';
    if ((this.#rolloutCount > 0 ? this.#rollouts : this.#failedTraces).count === 0) {
      out.write(json ? toJson({ type: 'show', views: [] }) : 'No failed rollouts or traces.\n');
      return;
    }
    if (json)
      return writeJsonObject(
        [
          ['type', 'show'],
          ['views', new JsonElements(views)],
        ],
        (text) => out.write(text),
      );
    let n = 0;
    for await (const view of views) out.write(n++ === 0 ? view : `\n${view}`);
  }

  /** A trace read alone from the store: one split over batches, drawn whole as the whole read draws it. */
  async #readTrace(traceId: string): Promise<Trace> {
    const where = `trace_id = ${sqlString(traceId)}`;
    const set = assembleTraces(await readAllSpans(this.#store, await spanRows(this.#store, where), where));
    return set.traces.get(traceId)!;
  }

  close(): void {
    this.#traces.close();
    this.#rollouts.close();
    this.#failedTraces.close();
  }
}

/**
 * The first {@link LIST_LIMIT} of what the walk meets, by a place (a rollout's start, a trace's
 * first line) and then `ties`, kept in memory: those placed after the first {@link LIST_LIMIT}
 * are dropped as the walk goes. Ties at the bound stay until the end, when `ties` can order them
 * (a rollout's trace may be split, its first line known when its last part is read).
 */
class FirstOf<T> {
  #kept: T[] = [];
  #bound: bigint | null = null;
  // (many at the bound: kept twice as many before the next sort)
  #sortAt = 2 * LIST_LIMIT;

  constructor(
    readonly placeOf: (x: T) => bigint,
    readonly ties: (a: T, b: T) => number,
  ) {}

  /** False when something at `place` cannot be among the first. */
  wants(place: bigint): boolean {
    return this.#bound === null || place <= this.#bound;
  }

  add(x: T): void {
    this.#kept.push(x);
    if (this.#kept.length < this.#sortAt) return;
    this.#kept.sort(this.#order);
    const bound = (this.#bound = this.placeOf(this.#kept[LIST_LIMIT - 1]!));
    this.#kept = this.#kept.filter((k) => this.placeOf(k) <= bound);
    this.#sortAt = 2 * Math.max(LIST_LIMIT, this.#kept.length);
  }

  /** The first, in order. */
  first(): T[] {
    return this.#kept.sort(this.#order).slice(0, LIST_LIMIT);
  }

  readonly #order = (a: T, b: T): number => compare(this.placeOf(a), this.placeOf(b)) || this.ties(a, b);
}

/** A root of the whole trace: without a parent, or an orphan (a root of a part under a split root has its parent elsewhere). */
function isTrueRoot(r: SpanNode): boolean {
  return r.span.parentSpanId === null || r.orphan;
}

/** The node of `trace` met first in the input (its spans come unit by unit when the trace is split). */
function firstInInput(trace: Trace, fileNo: ReadonlyMap<string, number>): SpanNode {
  let first: SpanNode | null = null;
  let firstFile = 0;
  trace.nodes.forEach((n) => {
    const file = fileNo.get(n.span.source.file) ?? 0;
    if (first === null || file < firstFile || (file === firstFile && n.span.source.line < first.span.source.line)) {
      first = n;
      firstFile = file;
    }
  });
  return first!;
}

function placeOf(fileNo: ReadonlyMap<string, number>, source: SpanSource): bigint {
  return BigInt(fileNo.get(source.file) ?? 0) * LINES_PER_FILE + BigInt(source.line);
}

function compare<T extends bigint | string>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byStart(a: { startNs: bigint; spanId: string }, b: { startNs: bigint; spanId: string }): number {
  return compare(a.startNs, b.startNs) || compare(a.spanId, b.spanId);
}

/**
 * `SpreadingPool`: the connections to one upstream origin, spread before they are stacked. A request
 * takes an idle connection, else opens a new one while the socket budget allows, and only when
 * every socket is busy is it pipelined behind the fewest requests on one (up to `pipelining` per
 * socket); beyond that it waits in the pool's queue. undici's own `Pool` does the opposite — it
 * fills one connection's pipeline before using the next — and finds a free connection by scanning
 * all of them, which at thousands of sockets costs more than the request. Here each choice is O(1):
 * connections are kept in sets by how many requests they carry.
 * @module
 */
import { buildConnector, Client, Dispatcher, errors } from 'undici';

/** Options of {@link SpreadingPool}. */
export interface SpreadingPoolOptions {
  /** The socket budget for this origin. */
  connections: number;
  /** Requests per socket once every socket is busy (1: never pipeline, queue instead). */
  pipelining: number;
  /** Options of each connection's undici `Client` (`pipelining` is set from the above). */
  client: Omit<Client.Options, 'pipelining'>;
}

/** The undici handler shape `Dispatcher.request()` passes to `dispatch`. */
type LegacyHandler = Dispatcher.DispatchHandler & {
  onConnect(abort: (err?: Error) => void, context?: unknown): void;
  onError(err: Error): void;
  onComplete?(trailers: unknown): void;
  onUpgrade?(statusCode: number, headers: unknown, socket: unknown): void;
  onResponseStarted?(): void;
  onHeaders?(statusCode: number, headers: unknown, resume: () => void, statusText: string): boolean;
  onData?(chunk: Buffer): boolean;
  onBodySent?(chunk: unknown): void;
  onRequestSent?(): void;
};

interface Queued {
  opts: Dispatcher.DispatchOptions;
  handler: LegacyHandler;
}

/** Forwards every callback and tells the pool once the request is over (answered or failed). */
class SettlingHandler {
  readonly #inner: LegacyHandler;
  readonly #client: Client;
  // the pool's one callback, told which connection: no closure per request
  readonly #settle: (client: Client) => void;
  #settled = false;

  constructor(inner: LegacyHandler, client: Client, settle: (client: Client) => void) {
    this.#inner = inner;
    this.#client = client;
    this.#settle = settle;
  }

  onConnect(abort: (err?: Error) => void, context?: unknown): void {
    this.#inner.onConnect(abort, context);
  }
  onResponseStarted(): void {
    this.#inner.onResponseStarted?.();
  }
  onHeaders(statusCode: number, headers: unknown, resume: () => void, statusText: string): boolean {
    return this.#inner.onHeaders?.(statusCode, headers, resume, statusText) ?? true;
  }
  onData(chunk: Buffer): boolean {
    return this.#inner.onData?.(chunk) ?? true;
  }
  onUpgrade(statusCode: number, headers: unknown, socket: unknown): void {
    this.#done();
    this.#inner.onUpgrade?.(statusCode, headers, socket);
  }
  onBodySent(chunk: unknown): void {
    this.#inner.onBodySent?.(chunk);
  }
  onRequestSent(): void {
    this.#inner.onRequestSent?.();
  }
  onComplete(trailers: unknown): void {
    this.#done();
    this.#inner.onComplete?.(trailers);
  }
  onError(err: Error): void {
    this.#done();
    this.#inner.onError(err);
  }

  #done(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#settle(this.#client);
  }
}

function firstOf(set: Set<Client>): Client {
  return set.values().next().value as Client;
}

export class SpreadingPool extends Dispatcher {
  readonly #origin: string;
  readonly #maxConnections: number;
  readonly #depth: number;
  readonly #clientOptions: Client.Options;
  readonly #clients: Client[] = [];
  /** `#byLoad[k]`: the connections carrying k requests, for k below the depth (full ones are in none). */
  readonly #byLoad: Array<Set<Client>>;
  readonly #load = new Map<Client, number>();
  #queue: Queued[] = [];
  #queueHead = 0;
  #inFlight = 0;
  #closing: Promise<void> | undefined;
  #idle: (() => void) | undefined;
  readonly #onSettled = (client: Client): void => this.#settled(client);

  constructor(origin: string, options: SpreadingPoolOptions) {
    super();
    this.#origin = origin;
    this.#maxConnections = Math.max(1, Math.floor(options.connections));
    this.#depth = Math.max(1, Math.floor(options.pipelining));
    // one connector for every connection, as undici's own pools share theirs: each Client left to
    // build its own carries a TLS session cache with a FinalizationRegistry and weak references,
    // thousands of them at 16k rollouts in flight, for plain-HTTP sockets that never use it
    const { connect, ...client } = options.client;
    this.#clientOptions = { ...client, pipelining: this.#depth, connect: typeof connect === 'function' ? connect : buildConnector({ ...connect }) };
    this.#byLoad = Array.from({ length: this.#depth }, () => new Set<Client>());
  }

  /** Open connections (sockets made so far, connected or not). */
  get connections(): number {
    return this.#clients.length;
  }

  /** Requests waiting for a socket. */
  get queued(): number {
    return this.#queue.length - this.#queueHead;
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (this.#closing !== undefined) throw new errors.ClientClosedError();
    if (typeof (handler as LegacyHandler).onConnect !== 'function') throw new errors.InvalidArgumentError('SpreadingPool takes the handlers of Dispatcher.request()');
    const client = this.#pick();
    if (client === undefined) {
      this.#queue.push({ opts, handler: handler as LegacyHandler });
      return false;
    }
    this.#send(client, opts, handler as LegacyHandler);
    return true;
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    this.#closing ??= this.#drained()
      .then(() => Promise.all(this.#clients.map((c) => c.close())))
      .then(() => undefined);
    if (callback === undefined) return this.#closing;
    void this.#closing.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(errOrCallback?: Error | null | (() => void), callback?: () => void): Promise<void> | void {
    const err = typeof errOrCallback === 'function' ? null : (errOrCallback ?? null);
    const done = typeof errOrCallback === 'function' ? errOrCallback : callback;
    this.#closing ??= Promise.resolve();
    const queued = this.#queue.slice(this.#queueHead);
    this.#queue = [];
    this.#queueHead = 0;
    for (const { handler } of queued) handler.onError(err ?? new errors.ClientDestroyedError());
    const destroyed = Promise.all(this.#clients.map((c) => c.destroy(err))).then(() => undefined);
    if (done === undefined) return destroyed;
    void destroyed.then(done);
  }

  /** The connection for the next request, or `undefined` when every one is at the depth and no more may open. */
  #pick(): Client | undefined {
    const idle = this.#byLoad[0]!;
    if (idle.size > 0) return firstOf(idle);
    if (this.#clients.length < this.#maxConnections) return this.#open();
    for (let load = 1; load < this.#depth; load++) {
      const carrying = this.#byLoad[load]!;
      if (carrying.size > 0) return firstOf(carrying);
    }
    return undefined;
  }

  #open(): Client {
    const client = new Client(this.#origin, this.#clientOptions);
    this.#clients.push(client);
    this.#load.set(client, 0);
    this.#byLoad[0]!.add(client);
    return client;
  }

  #send(client: Client, opts: Dispatcher.DispatchOptions, handler: LegacyHandler): void {
    this.#move(client, 1);
    this.#inFlight++;
    client.dispatch(opts, new SettlingHandler(handler, client, this.#onSettled));
  }

  #settled(client: Client): void {
    this.#inFlight--;
    this.#move(client, -1);
    // the freed slot goes to the oldest waiting request
    while (this.#queueHead < this.#queue.length) {
      const next = this.#pick();
      if (next === undefined) break;
      const { opts, handler } = this.#queue[this.#queueHead]!;
      this.#queue[this.#queueHead++] = undefined as unknown as Queued;
      if (this.#queueHead > 1024 && this.#queueHead * 2 > this.#queue.length) {
        this.#queue = this.#queue.slice(this.#queueHead);
        this.#queueHead = 0;
      }
      this.#send(next, opts, handler);
    }
    if (this.#inFlight === 0 && this.queued === 0) this.#idle?.();
  }

  #move(client: Client, delta: 1 | -1): void {
    const load = this.#load.get(client)!;
    if (load < this.#depth) this.#byLoad[load]!.delete(client);
    const next = load + delta;
    this.#load.set(client, next);
    if (next < this.#depth) this.#byLoad[next]!.add(client);
  }

  /** Resolves once nothing is queued or in flight (what `close()` waits for, as undici's pools do). */
  #drained(): Promise<void> {
    if (this.#inFlight === 0 && this.queued === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#idle = () => {
        this.#idle = undefined;
        resolve();
      };
    });
  }
}

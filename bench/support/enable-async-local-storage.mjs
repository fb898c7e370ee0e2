// Preload for `cpu-ab` (GYM_SERVER_NODE_FLAGS=--import=<this file>): enters an AsyncLocalStorage
// store at start-up, so a process with telemetry off pays what Node 20's AsyncLocalStorage costs
// every promise once any store is entered — the price of the context manager alone.
import { AsyncLocalStorage } from 'node:async_hooks';

new AsyncLocalStorage().enterWith({});

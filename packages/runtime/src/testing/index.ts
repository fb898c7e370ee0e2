/**
 * @gym/runtime/testing — the memory of a process as the orchestrator samples it, for tests and
 * benchmarks that measure one. Doubles for testing a server implementation are `@gym/server/testing`.
 * @module
 */
export { readProcessRss } from '../orchestrator/proc-memory.js';

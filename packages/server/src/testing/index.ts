/**
 * @gym/runtime/testing — doubles for testing server implementations over real HTTP, a free port, and
 * the memory of a process (as the orchestrator samples it), for tests and benchmarks that measure one.
 * @module
 */
export { assistantMessage, functionCall, scriptedModelServer } from './scripted-model.js';
export type { ScriptedModelServer, ScriptedTurn } from './scripted-model.js';
export { freePort } from './free-port.js';
export { readProcessRss } from '../orchestrator/proc-memory.js';

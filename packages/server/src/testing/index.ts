/**
 * @gym/server/testing — doubles for testing server implementations over real HTTP, and a free port.
 * @module
 */
export { assistantMessage, functionCall, scriptedModelServer } from './scripted-model.js';
export type { ScriptedModelServer, ScriptedTurn } from './scripted-model.js';
export { freePort } from './free-port.js';

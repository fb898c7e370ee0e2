/**
 * @gym/runtime/testing — doubles for testing server implementations over real HTTP.
 * @module
 */
export { assistantMessage, functionCall, scriptedModelServer } from './scripted-model.js';
export type { ScriptedModelServer, ScriptedTurn } from './scripted-model.js';

/**
 * The one message a Python server's host process (`python-host.ts`) sends its orchestrator: the
 * pid of the Python process it started, which leads that process's own group (`uv run` and the
 * interpreter it runs), so the orchestrator can kill the group too if the host itself is stuck.
 * @module
 */

/** `type` of {@link PythonChildMessage}. */
export const PYTHON_CHILD_MESSAGE_TYPE = 'gym.python.child';

/** The host's report of the Python process it started. */
export interface PythonChildMessage {
  type: typeof PYTHON_CHILD_MESSAGE_TYPE;
  pid: number;
}

/** True for a {@link PythonChildMessage}. */
export function isPythonChildMessage(message: unknown): message is PythonChildMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === PYTHON_CHILD_MESSAGE_TYPE && Number.isInteger((message as { pid?: unknown }).pid);
}

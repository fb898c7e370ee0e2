/**
 * The runtime's error codes, one row each, in the style of fastify's `createError` tables: who must
 * act (which decides the class: {@link GymUserError} and kin), the HTTP status where the error is an
 * answer, the message template where every raise says the same thing (`%s` filled in order), and
 * the docs page and section that explain it. The error classes of `config/`, `http/`, `rollouts/`
 * and the rest are built from these rows (`gymErrorClass`), and the catalogue test checks the table
 * against docs/errors*.md both ways. Codes are never reused.
 * @module
 */

/** Who must act on an error, which is also its class. */
export type ErrorKind =
  /** The user fixes config, flags or input files: `GymUserError`, the CLI exits 2 with the message. */
  | 'user'
  /** Another process (a server, a model, an upstream API) failed: `GymUpstreamError`. */
  | 'upstream'
  /** The caller's own doing in a library call (it aborted, it used a closed client): `GymError`. */
  | 'caller';

/** One row of an error table. */
export interface ErrorSpec {
  kind: ErrorKind;
  /** The message, `%s` replaced in order by the class's arguments; absent where each raise words its own. */
  message?: string;
  /** The status a gym server answers with when the error reaches its ingress. */
  status?: number;
  /** `<page>.md#<section>` under docs/. */
  docs: string;
}

const CONFIG = 'errors-config.md#config-errors';
const HTTP = 'errors-http.md#http-errors-gym_http_';
const ROLLOUTS = 'errors-rollouts.md#rollout-collection-errors-gym_rollout_';
const RUNTIME = 'errors.md#runtime';

export const GYM_ERRORS = {
  GYM_CONFIG_FILE_NOT_FOUND: { kind: 'user', docs: CONFIG },
  GYM_CONFIG_BAD_YAML: { kind: 'user', docs: CONFIG },
  GYM_CONFIG_BAD_OVERRIDE: { kind: 'user', docs: CONFIG },
  GYM_CONFIG_INTERPOLATION: { kind: 'user', docs: CONFIG },
  GYM_CONFIG_MISSING_VALUE: { kind: 'user', docs: CONFIG },
  GYM_CONFIG_INVALID: { kind: 'user', docs: CONFIG },
  GYM_CONFIG_UNKNOWN_REFERENCE: { kind: 'user', docs: CONFIG },
  GYM_CONFIG_NO_FREE_PORT: { kind: 'user', docs: CONFIG },
  GYM_CLI_KEY_FILE: { kind: 'user', docs: CONFIG },

  GYM_HTTP_STATUS: { kind: 'upstream', message: '%s %s answered %s%s. Check the log of the server at that URL.', docs: HTTP },
  GYM_HTTP_CONNECTION: { kind: 'upstream', message: '%s %s failed after %s attempt(s)%s. Check that the server is running and reachable, and that the open-file limit is high enough.', docs: HTTP },
  GYM_HTTP_TIMEOUT: { kind: 'upstream', message: "%s %s did not finish within %s ms. Raise timeoutMs or check the upstream's load.", docs: HTTP },
  GYM_HTTP_ABORTED: { kind: 'caller', message: "%s %s was aborted by the caller's signal.", docs: HTTP },
  GYM_HTTP_INVALID_JSON: {
    kind: 'upstream',
    message: '%s %s answered %s with a body that is not JSON (%s). Point the client at a gym-compatible server, or pass { raw: true } to read the text.',
    docs: HTTP,
  },
  GYM_HTTP_CLIENT_CLOSED: { kind: 'caller', message: '%s %s was requested after the HTTP client was closed. Create a new client.', docs: HTTP },
  GYM_HTTP_INVALID_URL: { kind: 'user', message: '"%s" is not an absolute http:// or https:// URL. Check the server host/port in the config.', docs: HTTP },
  GYM_HTTP_REQUEST_REJECTED: { kind: 'user', docs: HTTP },
  GYM_HTTP_INVALID_ROUTE: { kind: 'user', docs: HTTP },

  GYM_ROLLOUT_INPUT_NOT_FOUND: { kind: 'user', docs: ROLLOUTS },
  GYM_ROLLOUT_INPUT_MALFORMED: { kind: 'user', docs: ROLLOUTS },
  GYM_ROLLOUT_NO_INPUT: { kind: 'user', docs: ROLLOUTS },
  GYM_ROLLOUT_PROMPT_CONFIG: { kind: 'user', docs: ROLLOUTS },
  GYM_ROLLOUT_NO_AGENT_REF: { kind: 'user', docs: ROLLOUTS },
  GYM_ROLLOUT_AGENT_UNKNOWN: { kind: 'user', docs: ROLLOUTS },
  GYM_ROLLOUT_AGENT_AMBIGUOUS: { kind: 'user', docs: ROLLOUTS },
  GYM_ROLLOUT_BAD_FLAG: { kind: 'user', docs: ROLLOUTS },
  GYM_ROLLOUT_OUTPUT_WRITE: { kind: 'user', docs: ROLLOUTS },
  GYM_ROLLOUT_NO_SHARDS: { kind: 'user', message: 'No rollout files match %s. Check the paths or quote the glob so gym expands it.', docs: ROLLOUTS },
  GYM_HEAD_SERVER_UNREACHABLE: { kind: 'user', docs: ROLLOUTS },

  GYM_CONFIG_NO_SERVERS: { kind: 'user', message: 'The config declares no server instances. Pass --resources-server, --model-type or --config.', docs: RUNTIME },
  GYM_HEAD_PORT_BUSY: { kind: 'user', docs: RUNTIME },
  GYM_HEAD_URL_INVALID: { kind: 'user', docs: RUNTIME },
  GYM_START_INTERRUPTED: { kind: 'user', message: 'Interrupted while waiting for %s; nothing was started for good.', docs: RUNTIME },
  GYM_SERVER_ENTRYPOINT_NOT_FOUND: { kind: 'user', docs: RUNTIME },
  GYM_PYTHON_NOT_FOUND: { kind: 'user', docs: RUNTIME },
  GYM_SERVER_EXITED: { kind: 'user', docs: RUNTIME },
  GYM_SERVER_PORT_IN_USE: { kind: 'user', docs: RUNTIME },
  GYM_SERVER_START_TIMEOUT: { kind: 'user', docs: RUNTIME },
  GYM_SERVER_NO_CONFIG: { kind: 'user', docs: RUNTIME },
  GYM_SERVER_UNKNOWN_INSTANCE: { kind: 'user', docs: RUNTIME },
  GYM_MODEL_ENDPOINT_UNREACHABLE: { kind: 'upstream', docs: RUNTIME },
  GYM_MODEL_CONFIG_INVALID: { kind: 'user', docs: RUNTIME },
  GYM_MODEL_UPSTREAM: { kind: 'upstream', docs: RUNTIME },
  GYM_MODEL_BAD_REPLY: { kind: 'upstream', docs: RUNTIME },
  GYM_MESSAGES_UNSUPPORTED_INPUT: { kind: 'user', status: 400, docs: RUNTIME },
  GYM_TELEMETRY_INVALID: { kind: 'user', docs: RUNTIME },
  GYM_EVIDENCE_CAPTURE_DIR: { kind: 'user', docs: RUNTIME },
  GYM_HEALTH_INPUT_NOT_FOUND: { kind: 'user', docs: RUNTIME },
  GYM_HEALTH_UNKNOWN_CHECK: { kind: 'user', docs: RUNTIME },
} as const satisfies Record<string, ErrorSpec>;

/** A code of the runtime's table. */
export type GymErrorCode = keyof typeof GYM_ERRORS;

/** The codes of one kind: what a class of that kind may be built with. */
export type GymErrorCodeOf<K extends ErrorKind> = { [C in GymErrorCode]: (typeof GYM_ERRORS)[C]['kind'] extends K ? C : never }[GymErrorCode];

/** `template` with each `%s` replaced by the next of `args` (fastify's `createError` convention). */
export function formatMessage(template: string, args: readonly unknown[]): string {
  let i = 0;
  return template.replace(/%s/g, () => String(args[i++] ?? ''));
}

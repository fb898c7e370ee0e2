// The expected span tree of one example_single_tool_call rollout, and a clean telemetry environment.
const AGENT = 'example_single_tool_call_simple_agent';

export const ROLLOUT_TREE = [
  `POST /run [${AGENT}]`,
  `  gym.rollout [${AGENT}]`,
  `    HTTP POST [${AGENT}]`,
  '      POST /seed_session [example_single_tool_call]',
  `    HTTP POST [${AGENT}]`,
  '      POST /v1/responses [policy_model]',
  '        gym.model.responses [policy_model]',
  `    HTTP POST [${AGENT}]`,
  '      POST /get_weather [example_single_tool_call]',
  `    HTTP POST [${AGENT}]`,
  '      POST /v1/responses [policy_model]',
  '        gym.model.responses [policy_model]',
  `    HTTP POST [${AGENT}]`,
  '      POST /verify [example_single_tool_call]',
  '        gym.verify [example_single_tool_call]',
  '          example_single_tool_call.grade [example_single_tool_call]',
];

/**
 * The same rollout with the `agent` group on (`per_rollout`, `all`): the agent loop runs under
 * `gym.agent.responses`, where the original's /run calls its own /v1/responses; seed and verify stay outside.
 */
export const PER_ROLLOUT_TREE = [...ROLLOUT_TREE.slice(0, 4), `    gym.agent.responses [${AGENT}]`, ...ROLLOUT_TREE.slice(4, 12).map((line) => `  ${line}`), ...ROLLOUT_TREE.slice(12)];

export function telemetryEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const key of Object.keys(env)) if (key.startsWith('OTEL_') && !(key in extra)) delete env[key];
  return env;
}

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

export function telemetryEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const key of Object.keys(env)) if (key.startsWith('OTEL_') && !(key in extra)) delete env[key];
  return env;
}

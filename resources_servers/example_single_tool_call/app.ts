/**
 * `example_single_tool_call`: one tool, `get_weather {city}`, and a `verify` that always rewards
 * 1.0. A plumbing test of the three-server flow, not a grader (as in the original).
 * @module
 */
import { z } from 'zod';
import { defineResourcesServer, gymSpan } from '@gym/server';
import type { ServerFactory } from '@gym/server';

/** The `get_weather` tool's request body. */
export const GET_WEATHER_REQUEST = z.object({ city: z.string() });

/** It has no settings of its own: `gym env validate` reports any it is given. */
export const configSchema = z.object({});

const createExampleSingleToolCall: ServerFactory = (context) =>
  defineResourcesServer({
    name: context.instance.instanceName,
    tools: {
      get_weather: {
        input: GET_WEATHER_REQUEST,
        handler: ({ city }) => ({ city, weather_description: `The weather in ${city} is cold.` }),
      },
    },
    // A worked example of a server's own span (docs/observability/extending.md): gated by the
    // `verify` group, it records shapes and outcomes — a count, a boolean — never the text itself.
    verify: {
      handler: (body) =>
        gymSpan('verify', 'example_single_tool_call.grade', (span) => {
          if (span.isRecording()) span.setAttribute('example_single_tool_call.tool_calls', body.response.output.filter((item) => item.type === 'function_call').length);
          return { reward: 1.0 };
        }),
    },
    reverifyMode: 'stateless',
  });

export default createExampleSingleToolCall;

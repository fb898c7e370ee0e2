/**
 * `example_single_tool_call`: one tool, `get_weather {city}`, and a `verify` that always rewards
 * 1.0. A plumbing test of the three-server flow, not a grader (as in the original).
 * @module
 */
import { z } from 'zod';
import { defineResourcesServer } from '@gym/runtime';
import type { ServerFactory } from '@gym/runtime';

/** The `get_weather` tool's request body. */
export const GET_WEATHER_REQUEST = z.object({ city: z.string() });

const createExampleSingleToolCall: ServerFactory = (context) =>
  defineResourcesServer({
    name: context.instance.instanceName,
    tools: {
      get_weather: {
        input: GET_WEATHER_REQUEST,
        handler: ({ city }) => ({ city, weather_description: `The weather in ${city} is cold.` }),
      },
    },
    verify: { handler: () => ({ reward: 1.0 }) },
    reverifyMode: 'stateless',
  });

export default createExampleSingleToolCall;

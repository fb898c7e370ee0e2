/** A small resources server used by the server tests. */
import { z } from 'zod';
import { GymHttpRequestError } from '../../src/http/index.js';
import { defineResourcesServer } from '../../src/server/index.js';

export const weather = defineResourcesServer({
  name: 'weather',
  tools: {
    get_weather: {
      input: z.object({ city: z.string(), days: z.number().int().optional() }),
      handler: ({ city }, { session }) => ({ city, weather_description: `cold in ${city}`, session: session.id }),
    },
    whoami: {
      input: z.looseObject({}),
      handler: (_body, { session, rolloutId }) => ({ session: session.id, isNew: session.isNew, rolloutId }),
    },
    explode: {
      input: z.looseObject({}),
      handler: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'x')");
      },
    },
    throw_string: {
      input: z.looseObject({}),
      handler: () => {
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- the server must survive a handler that throws a non-Error
        throw 'not an error';
      },
    },
    reject: {
      input: z.looseObject({}),
      handler: () => {
        throw new GymHttpRequestError(409, 'already seeded');
      },
    },
  },
  verify: {
    handler: (body) => ({ reward: body.response.output.length > 0 ? 1 : 0 }),
  },
});

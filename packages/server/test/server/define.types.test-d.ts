// Type-level checks of the server builders (checked by `tsc -p tsconfig.tests.json`, never run).
import { z } from 'zod';
import { defineResourcesServer } from '../../src/server/index.js';
import type { HttpResponse } from '../../src/http/index.js';
import { createHttpClient } from '../../src/http/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(_value?: T): void => undefined;

defineResourcesServer({
  name: 'typed',
  tools: {
    get_weather: {
      input: z.object({ city: z.string(), days: z.number().optional() }),
      handler: (body) => {
        assertType<Equal<typeof body, { city: string; days?: number | undefined }>>();
        return { city: body.city };
      },
    },
  },
  verify: {
    input: z.object({ responses_create_params: z.object({}), response: z.object({ output: z.array(z.unknown()) }), expected: z.string() }),
    handler: (_body) => {
      assertType<Equal<typeof _body.expected, string>>();
      return { reward: 1 };
    },
  },
});

defineResourcesServer({
  name: 'bad_verify',
  tools: {},
  // @ts-expect-error a verify result needs a numeric reward
  verify: { handler: () => ({ reward: 'yes' }) },
});

const client = createHttpClient();
export const typed: Promise<HttpResponse<{ ok: boolean }>> = client.post<{ ok: boolean }>('http://127.0.0.1:1/', {});

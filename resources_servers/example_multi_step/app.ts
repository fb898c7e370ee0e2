/**
 * `example_multi_step`: the original README's multi-step tutorial. The model looks up the value of
 * each synonym of the term the user's query is about (`get_synonym_value`, one call per synonym),
 * then submits the values in the order the prompt lists them (`extract_synonym_values`). `/verify`
 * rewards 1.0 when the last submission equals `expected_synonym_values` exactly.
 * @module
 */
import { z } from 'zod';
import { defineResourcesServer, gymSpan, VERIFY_REQUEST } from '@gym/server';
import type { ServerFactory } from '@gym/server';
import { gradeSynonymValues, lastExtractedValues, synonymValue } from './grade.js';

/** `get_synonym_value` body. */
export const GET_SYNONYM_VALUE_REQUEST = z.object({ synonym: z.string() });

/** `extract_synonym_values` body. */
export const EXTRACT_SYNONYM_VALUES_REQUEST = z.object({ synonym_values: z.array(z.int()) });

/** `/verify` body: the original's row fields. An empty `expected_synonym_values` is refused (the original divides by its length). */
export const EXAMPLE_MULTI_STEP_VERIFY_REQUEST = VERIFY_REQUEST.extend({
  id: z.int(),
  expected_synonym_values: z.array(z.int()).min(1),
  expected_synonyms: z.array(z.string()),
  minefield_label: z.string(),
  minefield_label_value: z.int(),
});

/** It has no settings of its own: `gym env validate` reports any it is given. */
export const configSchema = z.object({});

const createExampleMultiStep: ServerFactory = (context) =>
  defineResourcesServer({
    name: context.instance.instanceName,
    tools: {
      get_synonym_value: { input: GET_SYNONYM_VALUE_REQUEST, handler: ({ synonym }) => ({ synonym_value: synonymValue(synonym) }) },
      // The submission is read back from the transcript by `/verify`; the call itself only acknowledges.
      extract_synonym_values: { input: EXTRACT_SYNONYM_VALUES_REQUEST, handler: () => ({ success: true }) },
    },
    verify: {
      input: EXAMPLE_MULTI_STEP_VERIFY_REQUEST,
      handler: (body) =>
        gymSpan('verify', 'example_multi_step.grade', (span) => {
          const grade = gradeSynonymValues(lastExtractedValues(body.response.output), body.expected_synonym_values, body.minefield_label, body.minefield_label_value);
          if (span.isRecording()) {
            span.setAttribute('example_multi_step.values_submitted', grade.parsed_synonym_values.length);
            span.setAttribute('example_multi_step.accuracy', grade.accuracy);
          }
          return { reward: grade.accuracy ? 1.0 : 0.0, ...grade };
        }),
    },
    reverifyMode: 'stateless',
  });

export default createExampleMultiStep;

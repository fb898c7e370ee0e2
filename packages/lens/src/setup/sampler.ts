/**
 * The trace sampler from `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` of the given env.
 * @module
 */
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import type { Sampler } from '@opentelemetry/sdk-trace-base';
import { lensWarn, LENS_WARNINGS } from '../warnings.js';
import { readEnv } from './env.js';
import type { Env } from './env.js';

/** Sampler names understood in `OTEL_TRACES_SAMPLER`. */
export const SAMPLER_NAMES = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

/**
 * Builds the sampler (default `parentbased_always_on`). An unknown name or a ratio outside [0, 1]
 * is warned about (LENS_W007) and replaced by the default / ratio 1. Never throws.
 */
export function samplerFromEnv(env: Env): Sampler {
  const name = readEnv(env, 'OTEL_TRACES_SAMPLER')?.toLowerCase() ?? 'parentbased_always_on';
  const ratio = (): number => {
    const arg = readEnv(env, 'OTEL_TRACES_SAMPLER_ARG');
    if (arg === undefined) return 1;
    const value = Number(arg);
    if (Number.isFinite(value) && value >= 0 && value <= 1) return value;
    lensWarn(LENS_WARNINGS.SETUP_DEGRADED, `OTEL_TRACES_SAMPLER_ARG='${arg}' is not a ratio in [0, 1]; sampling everything (1.0).`);
    return 1;
  };
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio());
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    default:
      lensWarn(LENS_WARNINGS.SETUP_DEGRADED, `OTEL_TRACES_SAMPLER='${name}' is not supported; using parentbased_always_on. Supported: ${SAMPLER_NAMES.join(', ')}.`);
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

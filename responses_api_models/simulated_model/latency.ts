/**
 * The simulator's latency model: a fixed delay, or time-to-first-token plus output tokens at a
 * rate, with multiplicative jitter — enough to stand in for vLLM in demos and load tests.
 * @module
 */
import { z } from 'zod';

/** The `latency:` block of the simulated model's config. */
export const LATENCY_CONFIG = z
  .discriminatedUnion('mode', [
    z.object({ mode: z.literal('fixed'), fixed_ms: z.number().min(0).default(0), jitter: z.number().min(0).max(1).default(0) }),
    z.object({
      mode: z.literal('ttft_tps'),
      ttft_ms: z.number().min(0).default(200),
      tokens_per_second: z.number().positive().default(50),
      jitter: z.number().min(0).max(1).default(0.1),
    }),
  ])
  .default({ mode: 'fixed', fixed_ms: 0, jitter: 0 });

export type LatencyConfig = z.output<typeof LATENCY_CONFIG>;

/** Milliseconds to wait before answering with `outputTokens` tokens. `random` is in [0, 1). */
export function latencyMs(config: LatencyConfig, outputTokens: number, random: () => number = Math.random): number {
  const base = config.mode === 'fixed' ? config.fixed_ms : config.ttft_ms + (outputTokens / config.tokens_per_second) * 1000;
  const factor = 1 + config.jitter * (2 * random() - 1);
  return Math.max(0, base * factor);
}

/** Waits `ms` (no timer at all for 0, so a zero-latency simulator adds no event-loop turn). */
export function delay(ms: number): Promise<void> | undefined {
  return ms <= 0 ? undefined : new Promise((resolve) => setTimeout(resolve, ms));
}

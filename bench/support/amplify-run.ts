// Amplifies a real run's console logs into a large one of the same shape: every rollout is copied
// with fresh span ids and rollout ids (same trace, same gym.job, times shifted a little), the log
// lines between spans are copied with them, spans outside rollouts (gym.job, startup) and metric
// lines are written once. The result reads like one long run at high concurrency.
// Run: npx tsx bench/support/amplify-run.ts <run dir> <out dir> <spans>
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';

const ROLLOUT_ATTR = 'nemo.gym.rollout.id';
const SHIFT_NS_PER_COPY = 50_000n;

interface Line {
  text: string;
  span: Record<string, unknown> | null;
}

/** Writes amplified copies of `srcDir`'s `*.log` files into `outDir`; returns the span count. */
export function amplifyRun(srcDir: string, outDir: string, targetSpans: number): { spans: number; copies: number } {
  mkdirSync(outDir, { recursive: true });
  const files = readdirSync(srcDir)
    .filter((f) => f.endsWith('.log'))
    .sort();
  const parsed = new Map<string, Line[]>();
  const inRollout = new Set<string>();
  let rolloutSpans = 0;
  let otherSpans = 0;
  for (const f of files) {
    const lines = readFileSync(join(srcDir, f), 'utf8')
      .split('\n')
      .filter((l) => l.length > 0)
      .map((text): Line => {
        const at = text.indexOf('{"type":"span"');
        return { text, span: at < 0 ? null : (JSON.parse(text.slice(at)) as Record<string, unknown>) };
      });
    for (const l of lines) {
      if (l.span === null) continue;
      if (rolloutOf(l.span) === undefined) otherSpans++;
      else {
        rolloutSpans++;
        inRollout.add(l.span['span_id'] as string);
      }
    }
    parsed.set(f, lines);
  }
  if (rolloutSpans === 0) throw new Error(`no spans with ${ROLLOUT_ATTR} in ${srcDir}`);
  const copies = Math.max(1, Math.ceil((targetSpans - otherSpans) / rolloutSpans));
  for (const f of files) {
    const fd = openSync(join(outDir, basename(f)), 'w');
    let buf: string[] = [];
    let size = 0;
    const put = (s: string): void => {
      buf.push(s);
      size += s.length;
      if (size > 1 << 22) flush();
    };
    const flush = (): void => {
      writeSync(fd, buf.join(''));
      buf = [];
      size = 0;
    };
    const lines = parsed.get(f)!;
    for (let c = 0; c < copies; c++) {
      for (const l of lines) {
        if (l.span === null) {
          // metric batches once, log lines with every copy
          if (c === 0 || !l.text.includes('"type":"metric"')) put(l.text + '\n');
          continue;
        }
        const rollout = rolloutOf(l.span);
        if (rollout === undefined) {
          if (c === 0) put(l.text + '\n');
          continue;
        }
        put(JSON.stringify(c === 0 ? l.span : copyOf(l.span, c, rollout, inRollout)) + '\n');
      }
    }
    flush();
    closeSync(fd);
  }
  return { spans: otherSpans + copies * rolloutSpans, copies };
}

function rolloutOf(span: Record<string, unknown>): string | undefined {
  const v = (span['attributes'] as Record<string, unknown> | undefined)?.[ROLLOUT_ATTR];
  return typeof v === 'string' ? v : undefined;
}

function copyOf(span: Record<string, unknown>, c: number, rollout: string, inRollout: Set<string>): Record<string, unknown> {
  const shift = BigInt(c) * SHIFT_NS_PER_COPY;
  const parent = span['parent_span_id'];
  const start = BigInt(span['start_time_unix_nano'] as string) + shift;
  const end = BigInt(span['end_time_unix_nano'] as string) + shift;
  return {
    ...span,
    span_id: idOf(span['span_id'] as string, c),
    parent_span_id: typeof parent === 'string' && inRollout.has(parent) ? idOf(parent, c) : parent,
    start_time: isoOf(start),
    end_time: isoOf(end),
    start_time_unix_nano: start.toString(),
    end_time_unix_nano: end.toString(),
    attributes: { ...(span['attributes'] as object), [ROLLOUT_ATTR]: `c${c}-${rollout}` },
  };
}

function idOf(spanId: string, c: number): string {
  return c.toString(16).padStart(6, '0') + spanId.slice(6);
}

function isoOf(ns: bigint): string {
  return new Date(Number(ns / 1_000_000n)).toISOString().slice(0, -1) + (ns % 1_000_000n).toString().padStart(6, '0') + 'Z';
}

if (process.argv[1]?.endsWith('amplify-run.ts') === true) {
  const [src, out, spans] = process.argv.slice(2);
  if (src === undefined || out === undefined) throw new Error('usage: amplify-run.ts <run dir> <out dir> <spans>');
  const r = amplifyRun(src, out, Number(spans ?? 1_000_000));
  console.log(`wrote ${r.spans} spans (${r.copies} copies of the run's rollouts) to ${out}`);
}

/**
 * `gym trace top`: follows a run's log files as they grow and redraws, in place, the rollouts done,
 * failed and in flight (with their last finished step), the slowest so far and each process's
 * event loop. It starts from the run's store (converting what is new, as every command does) and
 * follows the files from where the store ends. Ctrl-C ends it (exit 0). Off a terminal it prints a
 * frame per interval; `--once` reads what is there, prints one frame and exits.
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { TRACE_ERROR_CODES, TraceUserError } from '../errors.js';
import { FileFollower } from '../live/follow-files.js';
import type { FollowStart } from '../live/follow-files.js';
import type { LiveRun } from '../live/live-run.js';
import { liveRunFromStore } from '../live/stored-run.js';
import { renderTopFrame } from '../live/top-frame.js';
import { RecordScanner } from '../read/record-scanner.js';
import { handleRecord } from '../read/records.js';
import type { RecordHandlers } from '../read/records.js';
import { ResourceCache } from '../read/resource-cache.js';
import { resolvePaths } from './default-paths.js';
import { withStore } from './load.js';
import type { InputOptions } from './load.js';
import { runCommand, terminalSafe } from './output.js';
import type { CommandOutput } from './output.js';

/** Options of {@link top}. */
export interface TopOptions extends InputOptions {
  /** Milliseconds between redraws. Default 1000. */
  intervalMs?: number;
  /** Read what is there, print one frame, exit. */
  once?: boolean;
  /** Redraw in place (a terminal). Default false: one frame per interval. */
  tty?: boolean;
  /** Ends the loop (Ctrl-C). */
  signal?: AbortSignal;
}

// While catching up on a long backlog, a frame every this many bytes (of the file furthest behind) keeps the view moving.
const BYTES_PER_POLL = 64 * 1024 * 1024;
const CLEAR = '\x1b[H\x1b[J';
const HIDE_CURSOR = '\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';

/** Runs `top` until `signal` aborts (or once); returns the exit code (0, or 2 for bad input). */
export async function top(options: TopOptions, out: CommandOutput): Promise<number> {
  return runCommand(out, async () => {
    const intervalMs = options.intervalMs ?? 1000;
    if (!Number.isFinite(intervalMs) || intervalMs < 50) throw new TraceUserError(TRACE_ERROR_CODES.badOption, `--interval takes milliseconds (at least 50), got ${options.intervalMs}.`);
    const paths = await resolvePaths(options.paths, options.cwd, out);
    const { live, start } = await fromStore(paths, out);
    const resources = new ResourceCache();
    const scanners = new Map<string, RecordScanner>();
    const handlers: RecordHandlers = {
      span: (s) => live.span(s),
      metric: (points) => points.forEach((p) => live.metric(p)),
      malformed: () => undefined,
      skipped: () => undefined,
    };
    const follower = new FileFollower(
      paths,
      (file, line, lineNo) => {
        let scanner = scanners.get(file);
        if (scanner === undefined) {
          scanners.set(
            file,
            (scanner = new RecordScanner({
              skipped: () => undefined,
              malformed: () => undefined,
              mayBeRecord: (t) => !t.startsWith('{"') || t.includes('"span_id"') || t.includes('"resourceSpans"') || t.includes('"metric"') || t.includes('"type":"resource"'),
              record: (obj, at) => handleRecord(obj, { file, line: at }, resources, handlers),
            })),
          );
        }
        scanner.push(line, lineNo);
      },
      start,
    );
    const source = paths.join(' ');
    // the frame shows names read from the files; the screen codes around it are top's own
    const frame = (redraw: boolean) => terminalSafe(renderTopFrame(live.snapshot(), { source, files: follower.files, behindBytes: follower.behindBytes, live: redraw }));
    if (options.once === true) {
      while ((await follower.poll(BYTES_PER_POLL)) > 0);
      out.write(frame(false));
      return 0;
    }
    const tty = options.tty === true;
    if (tty) out.write(HIDE_CURSOR);
    try {
      while (options.signal?.aborted !== true) {
        await follower.poll(BYTES_PER_POLL);
        out.write(tty ? CLEAR + frame(true) : frame(false) + '\n');
        if (follower.behindBytes > 0) continue;
        await sleep(intervalMs, undefined, { signal: options.signal }).catch(() => undefined);
      }
    } finally {
      if (tty) out.write(SHOW_CURSOR);
    }
    return 0;
  });
}

/** The live view of what the store of `paths` holds, and where in each file the store ends. */
async function fromStore(paths: string[], out: CommandOutput): Promise<{ live: LiveRun; start: Map<string, FollowStart> }> {
  return withStore(paths, out, async (store) => ({ live: await liveRunFromStore(store), start: new Map(store.files.map((f) => [f.path, { offset: f.offset, lineNo: f.lines }])) }), {
    requireSpans: false,
  });
}

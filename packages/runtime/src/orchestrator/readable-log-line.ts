/**
 * A server's pino JSON log line as a short line for the terminal: the message, its level when it
 * is a warning or worse, and the error's message. The log file keeps the JSON (`--verbose` shows it).
 * @module
 */

const LEVELS: Record<number, string> = { 40: 'warning', 50: 'error', 60: 'fatal' };

/**
 * The readable form of `line` (no newline), `''` to show nothing, or `undefined` when it is not a
 * pino record (shown as it is).
 */
export function readableLogLine(line: string): string | undefined {
  if (!line.startsWith('{"level":')) return undefined;
  let record: { level?: unknown; msg?: unknown; err?: { message?: unknown } };
  try {
    record = JSON.parse(line) as typeof record;
  } catch {
    return undefined;
  }
  const msg = typeof record.msg === 'string' ? record.msg : '';
  // fastify's own start-up line repeats what the server's "listening on" line says
  if (msg.startsWith('Server listening at ')) return '';
  const level = typeof record.level === 'number' ? LEVELS[Math.min(60, Math.floor(record.level / 10) * 10)] : undefined;
  const cause = typeof record.err?.message === 'string' && record.err.message !== msg ? `: ${record.err.message}` : '';
  return `${level === undefined ? '' : `${level}: `}${msg}${cause}`;
}

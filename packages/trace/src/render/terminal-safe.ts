/**
 * Text read from telemetry files (span and service names, status messages, SQL results) printed
 * to a terminal: control characters are shown escaped (`\x1b`, `\u202e`) instead of being obeyed,
 * so a span named with an escape sequence cannot move the cursor, retitle the window, hide lines
 * or plant a link. Newlines and tabs pass, and so does `\r` where a caller draws progress with it.
 * @module
 */

// C0 controls but \t and \n (and \r, in the variant below), DEL, the C1 controls, and the bidi
// embeddings, overrides and isolates that reorder what a line shows
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_BUT_CR = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

function escape(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
}

/** `text` with every control character shown escaped; unchanged (the same string) when it has none. */
export function terminalSafe(text: string): string {
  CONTROLS.lastIndex = 0;
  return CONTROLS.test(text) ? text.replace(CONTROLS, escape) : text;
}

/** The same, letting `\r` through: for stderr, where progress lines redraw themselves with it. */
export function terminalSafeKeepingCr(text: string): string {
  CONTROLS_BUT_CR.lastIndex = 0;
  return CONTROLS_BUT_CR.test(text) ? text.replace(CONTROLS_BUT_CR, escape) : text;
}

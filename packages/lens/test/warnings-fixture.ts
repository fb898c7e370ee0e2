// Collects the coded warnings lens emits while a test runs.
export interface CapturedWarnings {
  /** Stops listening after pending warnings arrive (`process.emitWarning` delivers on a later tick). */
  stop(): Promise<void>;
  codes(): string[];
  messages(): string[];
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Starts collecting once warnings emitted earlier have been delivered. */
export async function captureWarnings(): Promise<CapturedWarnings> {
  await nextTurn();
  const seen: Array<{ code: string; message: string }> = [];
  const listener = (warning: Error & { code?: string }) => {
    if (warning.name === 'LensWarning') seen.push({ code: warning.code ?? '', message: warning.message });
  };
  process.on('warning', listener);
  return {
    async stop() {
      await nextTurn();
      process.off('warning', listener);
    },
    codes: () => seen.map((w) => w.code),
    messages: () => seen.map((w) => w.message),
  };
}

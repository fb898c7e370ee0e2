// A node:test reporter that writes one JSON object when the run ends: how long each test file took
// and how many tests passed, failed and were skipped. scripts/run-tests.mjs reads it to list the
// slowest files after the spec reporter's own output.
export default async function* fileTimesReporter(source) {
  const files = {};
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { data } = event;
    // a file's top-level tests and suites run one after another: their durations add up to the
    // file's time (its imports aside)
    if (data.nesting === 0 && data.file !== undefined) files[data.file] = (files[data.file] ?? 0) + (data.details?.duration_ms ?? 0);
    if (data.details?.type === 'suite') continue;
    if (data.skip !== undefined || data.todo !== undefined) counts.skipped++;
    else if (event.type === 'test:pass') counts.passed++;
    else counts.failed++;
  }
  yield JSON.stringify({ files, counts });
}

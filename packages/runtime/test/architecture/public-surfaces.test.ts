// The public surface of every package entry point is pinned in public-surfaces.pin.json: adding,
// removing or renaming an export fails here until the pin is updated in the same change, so
// widening the API is a visible decision.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { entryPoints, hasStarExport, typeExports, valueExports } from './entry-points.js';

type Pins = Record<string, { values: string[]; types: string[] }>;
const PINS = JSON.parse(readFileSync(new URL('./public-surfaces.pin.json', import.meta.url), 'utf8')) as Pins;

describe('public surfaces', () => {
  const entries = entryPoints();

  it('pins exactly the entry points the packages export', () => {
    assert.deepEqual(entries.map((e) => e.specifier).sort(), Object.keys(PINS).sort());
  });

  for (const entry of entries) {
    it(`${entry.specifier} exports exactly its pinned names`, async () => {
      assert.equal(hasStarExport(entry), false, `${entry.specifier} uses export *: list the names`);
      const actual = { values: await valueExports(entry), types: typeExports(entry) };
      assert.deepEqual(actual, PINS[entry.specifier], `update public-surfaces.pin.json if ${entry.specifier} should change`);
    });
  }
});

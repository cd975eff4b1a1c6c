/**
 * A run's recorded cost (end.recordedCostUsd) is the exact sum of its calls' recorded costs, as replay sums
 * them (picodollars): summed as float dollars and rounded to the picodollar it came out a picodollar off.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCassette } from '../../src/import/http/cassette.js';

const CASSETTE = join(process.cwd(), '..', 'shared', 'traces', 'cassettes', 'models__openrouter__test_cache__test_openrouter_cache_all_settings_real_api.yaml');

describe("a cassette run's recorded cost", () => {
  it('is the exact sum of its calls', () => {
    const text = readFileSync(CASSETTE, 'utf8').replaceAll('0.01058775', '1246.723143554').replaceAll('0.00256995', '1441.044268530421');
    const [run] = importCassette(text, 'openrouter.yaml');
    expect(run!.calls.map((c) => c.recordedCostUsd)).toEqual([1246.723143554, 1441.044268530421]);
    expect(run!.end.recordedCostUsd).toBe(2687.767412084421);
  });
});

/**
 * A fitted profile names the price table fit priced its runs with (`# Fit prices: {…}`: the table as
 * reports name it, its hashes, the flags that load it), and every command that runs the profile under a
 * table of another hash warns once per file (`fitted_profile_prices`), naming the fit's table and the
 * flag to pass. Before, `replay profile.yaml` ran a profile fitted under --prices FILE with the bundled
 * table (another window: runs refused by the provider, another cost), said only in a YAML comment.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fitPricesIn } from '../../src/scenario/fitWarnings.js';
import { cli, tempDir } from './run.js';

const RUNS = 'test/fixtures/mini-swe-agent';
const PRICES = 'test/fixtures/prices/deepseek-recorded.json';

/** A copy of `profile` with an expect: block, as check needs. */
function withExpect(profile: string): string {
  const file = profile.replace(/\.yaml$/, '-expect.yaml');
  writeFileSync(file, `${readFileSync(profile, 'utf8')}expect: { runs: { steps: { max: 500 } } }\n`);
  return file;
}

async function pricesWarnings(...argv: string[]): Promise<string[]> {
  const r = await cli(...argv, '--format', 'json');
  expect(r.code, r.stderr).toBeLessThan(2);
  const warnings = JSON.parse(r.stdout).warnings as { code: string; message: string }[];
  return warnings.filter((w) => w.code === 'fitted_profile_prices').map((w) => w.message);
}

describe("a fitted profile's price table travels with it", () => {
  const dir = tempDir();
  const profile = join(dir, 'fitted.yaml');
  const bundled = join(dir, 'bundled.yaml');
  // Each test that reads the profile fits it first (once per file): a test run alone under -t finds it too.
  let fitted: Promise<number> | undefined;
  const fitProfile = async (): Promise<void> => {
    fitted ??= cli('fit', RUNS, '--prices', PRICES, '--out', profile).then((r) => r.code);
    expect(await fitted).toBe(0);
  };

  it('fit records the table it priced with: its name, hash and the flags that load it', async () => {
    await fitProfile();
    const prices = fitPricesIn(readFileSync(profile, 'utf8'));
    expect(prices?.flags).toBe(`--prices ${PRICES}`);
    expect(prices?.table).toMatch(/^test\/fixtures\/prices\/deepseek-recorded\.json file \(sha256 [0-9a-f]{16}\)$/);
    expect(prices?.key).toMatch(/^sha256 [0-9a-f]{16}$/);
  });

  it.each([
    ['replay', '--runs', '20'],
    ['whatif', '--runs', '20', '--try', 'max-steps=5'],
    ['sweep', '--runs', '20', '--grid', 'max-steps=5,10'],
    ['project', '--runs', '20', '--runs-per-day', '10', '--days', '2'],
    ['calibrate', '--runs', '20', '--grid', 'max-repeat=2,3'],
    ['check'],
  ])('%s under another table warns once, naming the fit table and --prices FILE', async (command, ...flags) => {
    await fitProfile();
    // check holds a file to its expect: block (one it has none of is refused).
    const file = command === 'check' ? withExpect(profile) : profile;
    const said = await pricesWarnings(command!, file, file, ...flags);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(new RegExp(`^${file}: fitted with prices test/fixtures/prices/deepseek-recorded\\.json file \\(sha256 [0-9a-f]+\\), run here with @pydantic/genai-prices`));
    expect(said[0]).toContain(`pass --prices ${PRICES} to run it as fitted`);
  });

  it('under the same table (or a copy of it elsewhere), no warning', async () => {
    await fitProfile();
    expect(await pricesWarnings('replay', profile, '--runs', '20', '--prices', PRICES)).toEqual([]);
    const copy = join(dir, 'copy.json');
    copyFileSync(PRICES, copy);
    expect(await pricesWarnings('sweep', profile, '--runs', '20', '--grid', 'max-steps=5,10', '--prices', copy)).toEqual([]);
  });

  it('a profile fitted with the bundled table warns under a --prices file, and says to drop it', async () => {
    expect((await cli('fit', RUNS, '--out', bundled)).code).toBe(0);
    expect(await pricesWarnings('replay', bundled, '--runs', '20')).toEqual([]);
    const said = await pricesWarnings('replay', bundled, '--runs', '20', '--prices', PRICES);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('drop --prices, --prices-override and --prices-as-of (fit priced with the bundled table) to run it as fitted');
  });

  it('the table text report says it too; a scenario fit did not write says nothing', async () => {
    await fitProfile();
    const r = await cli('replay', profile, '--runs', '20');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`warning: ${profile}: fitted with prices test/fixtures/prices/deepseek-recorded.json file`);
    expect(await pricesWarnings('replay', 'scenarios/flight-search.yaml', '--runs', '5', '--prices-as-of', '2025-06-01')).toEqual([]);
  });
});

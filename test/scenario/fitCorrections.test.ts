/**
 * A fitted profile's price table (`# Fit prices: {…}`, scenario/fitWarnings.ts) carries loopcost's corrections
 * over the bundled table: its key (priceTableKey) and a `corrections` field (version, hash). Before, the key
 * was the table's own hash only: a profile fitted under another version of the overlay, or before it, ran
 * under this one unwarned. A profile without the field (fitted by an older loopcost) is read as fitted with
 * the table without the corrections, and the warning says so.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { priceCorrectionsSource } from '../../src/pricing/priceCorrections.js';
import { fitPricesIn, type FitPrices } from '../../src/scenario/fitWarnings.js';
import { cli, tempDir } from '../cli/run.js';

const RUNS = 'test/fixtures/mini-swe-agent';
const OVERLAY = priceCorrectionsSource();
const NOTE = '# Fit prices: ';

async function pricesWarnings(file: string): Promise<string[]> {
  const r = await cli('replay', file, '--runs', '5', '--format', 'json');
  expect(r.code, r.stderr).toBe(0);
  const warnings = JSON.parse(r.stdout).warnings as { code: string; message: string }[];
  return warnings.filter((w) => w.code === 'fitted_profile_prices').map((w) => w.message);
}

describe("a fitted profile's price table carries loopcost's corrections", () => {
  const dir = tempDir();
  const profile = join(dir, 'fitted.yaml');
  let text = '';
  let written: FitPrices;

  /** The profile with its `# Fit prices:` line made by `edit`, as `name`. */
  function edited(name: string, edit: (prices: FitPrices) => object): string {
    const line = text.split('\n').find((l) => l.startsWith(NOTE))!;
    const path = join(dir, name);
    writeFileSync(path, text.replace(line, `${NOTE}${JSON.stringify(edit(structuredClone(written)))}`));
    return path;
  }

  beforeAll(async () => {
    expect((await cli('fit', RUNS, '--out', profile)).code).toBe(0);
    text = readFileSync(profile, 'utf8');
    written = fitPricesIn(text)!;
  });

  it('fit names the overlay in the key and the corrections field; the same table warns of nothing', async () => {
    expect(written.corrections).toEqual({ version: OVERLAY.version, hash: OVERLAY.hash });
    expect(written.key).toMatch(new RegExp(`^sha256 [0-9a-f]{16} \\+ loopcost corrections v${OVERLAY.version} \\(sha256 ${OVERLAY.hash}\\)$`));
    expect(await pricesWarnings(profile)).toEqual([]);
  });

  it("the overlay's hash changed by hand: replay warns, naming the corrections", async () => {
    const swap = (s: string) => s.split(OVERLAY.hash).join('0123456789abcdef');
    const other = edited('other-overlay.yaml', (p) => ({ ...p, key: swap(p.key), table: swap(p.table), corrections: { version: OVERLAY.version, hash: '0123456789abcdef' } }));
    const said = await pricesWarnings(other);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`loopcost's corrections changed since the fit: v1 (sha256 0123456789abcdef) then, v1 (sha256 ${OVERLAY.hash}) here;`);
  });

  it('a profile fitted before fit named the overlay is read as fitted without it, and warned of', async () => {
    const unnamed = (s: string) => s.split(' + ')[0]!;
    const old = edited('old.yaml', ({ corrections: _corrections, ...p }) => ({ ...p, key: unnamed(p.key), table: unnamed(p.table) }));
    expect(fitPricesIn(readFileSync(old, 'utf8'))).not.toHaveProperty('corrections');
    const said = await pricesWarnings(old);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/: fitted with prices @pydantic\/genai-prices [\d.]+ \(sha256 [0-9a-f]{16}\), run here with @pydantic\/genai-prices/);
    expect(said[0]).toContain(
      `loopcost's corrections: the profile names none (one fitted before fit named them is read as fitted with the table without them), this table carries loopcost corrections v1 (sha256 ${OVERLAY.hash});`,
    );
  });
});

/**
 * A check baseline's price identity carries loopcost's corrections over the bundled table (`prices.corrections`:
 * version and hash). Before, a baseline named only the table's own hash: one written before the overlay (or
 * under another version of it) compared as the same table, so what the corrections moved (a model's prices,
 * its window) showed as drift no note explained. A baseline without the field (an older loopcost's) is read,
 * as priced with the table without the corrections, and the price note says so; never refused.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { priceCorrectionsSource } from '../../src/pricing/priceCorrections.js';
import { cli, tempDir } from '../cli/run.js';

const RECURSIVE = 'scenarios/recursive-verification.yaml';
const OVERLAY = priceCorrectionsSource();
const squashed = (text: string) => text.replace(/\s+/g, ' ');

interface Baseline {
  prices: { hash: string; corrections?: { version: string; hash: string } };
  models: { model: string; pricesPicoPerToken: { input: number } }[];
}

/** A baseline of RECURSIVE written now, then edited by `edit` into `name`. */
function edited(written: string, name: string, edit: (file: Baseline) => void): string {
  const file = JSON.parse(readFileSync(written, 'utf8')) as Baseline;
  edit(file);
  const path = join(written, '..', name);
  writeFileSync(path, JSON.stringify(file, null, 2) + '\n');
  return path;
}

async function jsonDrift(...args: string[]): Promise<{ code: number; drift: Record<string, unknown> }> {
  const r = await cli('check', RECURSIVE, ...args, '--format', 'json');
  expect(r.stderr).not.toMatch(/internal error/);
  return { code: r.code, drift: JSON.parse(r.stdout).drift };
}

describe("a check baseline's price identity carries loopcost's corrections", () => {
  const dir = tempDir();
  const written = join(dir, 'B.json');

  it('a baseline names the overlay its table carried; against itself no price note', async () => {
    expect((await cli('check', RECURSIVE, '--update-baseline', written)).code).toBe(0);
    const file = JSON.parse(readFileSync(written, 'utf8')) as Baseline;
    expect(file.prices.corrections).toEqual({ version: OVERLAY.version, hash: OVERLAY.hash });
    const same = await jsonDrift('--baseline', written);
    expect(same.code).toBe(0);
    expect(same.drift).not.toHaveProperty('corrections');
    expect(same.drift).not.toHaveProperty('tableChange');
  });

  it("the overlay's hash changed by hand: the price note names the corrections, figures compared as measured", async () => {
    const other = edited(written, 'other-overlay.json', (file) => (file.prices.corrections!.hash = '0123456789abcdef'));
    const { code, drift } = await jsonDrift('--baseline', other);
    expect(code).toBe(0);
    expect(drift.corrections).toEqual({ baseline: { version: OVERLAY.version, hash: '0123456789abcdef' }, now: { version: OVERLAY.version, hash: OVERLAY.hash } });
    expect(drift.tableChange).toMatchObject({ baseline: expect.stringContaining('+ loopcost corrections v1 (sha256 0123456789abcdef)'), now: expect.stringContaining(`+ loopcost corrections v1 (sha256 ${OVERLAY.hash})`) });
    const text = squashed((await cli('check', RECURSIVE, '--baseline', other)).stdout);
    expect(text).toContain(
      `so every figure is compared as measured. loopcost's corrections changed since the baseline: v1 (sha256 0123456789abcdef) then, v1 (sha256 ${OVERLAY.hash}) now`,
    );
  });

  it('with a model price change too, the price-change note names the corrections', async () => {
    const other = edited(written, 'other-prices.json', (file) => {
      file.prices.corrections!.hash = '0123456789abcdef';
      file.models.find((row) => row.model === 'gpt-4o-mini')!.pricesPicoPerToken.input = 140000;
    });
    const { drift } = await jsonDrift('--baseline', other);
    expect(drift.priceChange).toBeDefined();
    expect(drift.corrections).toMatchObject({ baseline: { hash: '0123456789abcdef' } });
    const text = squashed((await cli('check', RECURSIVE, '--baseline', other)).stdout);
    expect(text).toContain(
      `price change: gpt-4o-mini (openai): input $0.14 → $0.15 per million tokens. loopcost's corrections changed since the baseline: v1 (sha256 0123456789abcdef) then, v1 (sha256 ${OVERLAY.hash}) now. Every figure is measured again`,
    );
  });

  it("a baseline without the field (an older loopcost's) is read as priced without the corrections, and said so", async () => {
    const old = edited(written, 'old.json', (file) => delete file.prices.corrections);
    const { code, drift } = await jsonDrift('--baseline', old);
    expect(code).toBe(0);
    expect(drift.corrections).toEqual({ baseline: null, now: { version: OVERLAY.version, hash: OVERLAY.hash } });
    expect(drift.tableChange).toMatchObject({ models: 1 });
    const text = squashed((await cli('check', RECURSIVE, '--baseline', old)).stdout);
    expect(text).toContain(
      `loopcost's corrections: the baseline names none (one written before baselines named them is read as priced with the table without them), this check's table carries loopcost corrections v1 (sha256 ${OVERLAY.hash})`,
    );
  });

  it('a corrections field not as written (a key it does not hold) is refused naming the field', async () => {
    const bad = edited(written, 'bad.json', (file) => Object.assign(file.prices.corrections!, { count: 8 }));
    const r = await cli('check', RECURSIVE, '--baseline', bad);
    expect(r.code).toBe(2);
    expect(squashed(r.stderr)).toContain('prices.corrections.count');
  });
});

/**
 * A check baseline's stored prices (`models[].pricesPicoPerToken`, its tiers) are held to the rules every
 * price loopcost reads is: whole picodollars per token (the shared pricingIssue), at most $1 a token (what a
 * price file may give), and no cache read above the input price (the pricing module's order rule). A
 * tampered price is refused naming the baseline file and the field, not the scenario its runs then fail in.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseBaseline } from '../../src/check/baselineFile.js';
import { UserError } from '../../src/errors.js';
import { cli, tempDir } from '../cli/run.js';

type Baseline = { models: { pricesPicoPerToken: Record<string, number>; tiers: { aboveInputTokens: number; pricesPicoPerToken: Record<string, number> }[] }[] };

let dir: string;
let written: Baseline;

beforeAll(async () => {
  dir = tempDir();
  writeFileSync(join(dir, 'w.yaml'), readFileSync('scenarios/weekly-report.yaml'));
  const made = await cli('check', join(dir, 'w.yaml'), '--update-baseline', join(dir, 'base.json'));
  expect(made.code, made.stderr).toBe(0);
  written = JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')) as Baseline;
}, 60_000);

function issuesOf(edit: (b: Baseline) => void) {
  const baseline = structuredClone(written);
  edit(baseline);
  try {
    parseBaseline(JSON.stringify(baseline), 'b.json');
    return [];
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return error.issues.map((issue) => `${issue.file} ${issue.field}: ${issue.message}`);
  }
}

describe("a baseline's stored prices", () => {
  it('the written baseline reads, its prices whole picodollars', () => {
    expect(written.models[0]!.pricesPicoPerToken).toEqual({ input: 150000, cachedInput: 75000, output: 600000 });
    expect(issuesOf(() => {})).toEqual([]);
  });

  it.each<[string, (b: Baseline) => void, string]>([
    ['half a picodollar', (b) => (b.models[0]!.pricesPicoPerToken.input = 0.5), 'b.json models[0].pricesPicoPerToken.input: 0.5 is not a price in whole picodollars per token, 0 or more'],
    ['1.5 picodollars', (b) => (b.models[0]!.pricesPicoPerToken.output = 1.5), 'b.json models[0].pricesPicoPerToken.output: 1.5 is not a price in whole picodollars per token'],
    ['a fraction in a tier', (b) => b.models[0]!.tiers.push({ aboveInputTokens: 1000, pricesPicoPerToken: { input: 2.5, output: 3 } }), 'b.json models[0].tiers[0].pricesPicoPerToken.input: 2.5 is not a price in whole picodollars per token'],
    ['2^53 − 1 picodollars a token', (b) => (b.models[0]!.pricesPicoPerToken.input = 9007199254740991), 'b.json models[0].pricesPicoPerToken.input: is 9007199254740991 picodollars per token: price of $9007.199254740992 per token is more than $1 per token'],
    ['a cache read above the input price', (b) => (b.models[0]!.pricesPicoPerToken.cachedInput = 1e9), 'b.json models[0].pricesPicoPerToken.cachedInput: is 1000000000 picodollars per token, above input (150000): a cache read never costs more than the prompt uncached'],
  ])('%s is refused naming the field', (_name, edit, expected) => {
    const issues = issuesOf(edit);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toContain(expected);
  });

  it('check --baseline with a fractional price: exit 2 naming the baseline, not the scenario', async () => {
    const baseline = structuredClone(written);
    baseline.models[0]!.pricesPicoPerToken.input = 0.5;
    const path = join(dir, 'frac.json');
    writeFileSync(path, JSON.stringify(baseline));
    const result = await cli('check', join(dir, 'w.yaml'), '--baseline', path);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`${path}:line \\d+ field 'models\\[0\\]\\.pricesPicoPerToken\\.input': 0\\.5 is not a price in whole picodollars per token`));
    expect(result.stderr).not.toContain('w.yaml');
  });
});
